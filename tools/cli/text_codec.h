// Byte-string helpers of the CLI: the JSON text forms shared with the
// JSONL backend (engine/jsonl/json_text.h, brought into this namespace) and
// a printable rendering of arbitrary bytes for tables.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "engine/jsonl/json_text.h"
#include "rockpoint/status.h"

namespace rockpoint::cli {

using jsonl::Base64Decode;
using jsonl::Base64Encode;
using jsonl::IsValidUtf8;
using jsonl::Json;
using jsonl::TextFromJson;
using jsonl::TextToJson;

// `bytes` for a terminal: valid UTF-8 stays as is except control characters
// and backslash, which are escaped (\n, \t, \\, \xNN); invalid bytes become
// \xNN. The empty string renders as "" (two quotes) so that it is visible.
std::string Printable(std::string_view bytes);

// The inverse of Printable, for ids typed on the command line (--escaped):
// \\, \n, \t and \xNN are decoded, "" (two quotes) is the empty string.
// InvalidArgument for any other backslash sequence.
Result<std::string> Unescape(std::string_view text);

}  // namespace rockpoint::cli
