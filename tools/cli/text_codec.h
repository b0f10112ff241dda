// Byte-string helpers of the CLI, from formats/ (brought into this
// namespace): the JSON text forms and a printable rendering of bytes.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "formats/json_text.h"
#include "formats/printable.h"
#include "rockpoint/status.h"

namespace rockpoint::cli {

using formats::Base64Decode;
using formats::Base64Encode;
using formats::IsValidUtf8;
using formats::Json;
using formats::TextFromJson;
using formats::TextToJson;

using formats::Printable;
using formats::Unescape;

}  // namespace rockpoint::cli
