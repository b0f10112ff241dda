// The JSON forms and line codec of formats/ that the journal's lines are
// written in (formats/json_text.h, value_json.h, lines.h, payload_json.h),
// named in this namespace.
#pragma once

#include "formats/json_text.h"
#include "formats/lines.h"
#include "formats/payload_json.h"
#include "formats/value_json.h"

namespace rockpoint::jsonl {

using formats::BadField;
using formats::Base64Decode;
using formats::Base64Encode;
using formats::CheckJsonNesting;
using formats::CheckpointLine;
using formats::CheckpointLineFromJson;
using formats::CheckpointLineToJson;
using formats::Dialect;
using formats::IsValidUtf8;
using formats::Json;
using formats::JsonNestingDepth;
using formats::kMaxJsonDepth;
using formats::LineFields;
using formats::PayloadFromJson;
using formats::PayloadToJson;
using formats::TextFromJson;
using formats::TextsFromJson;
using formats::TextsToJson;
using formats::TextToJson;
using formats::Utf8SequenceLength;
using formats::ValueFromJson;
using formats::ValueLine;
using formats::ValueLineFromJson;
using formats::ValueLineToJson;
using formats::ValueToJson;
using formats::VersionFromJson;
using formats::VersionToJson;
using formats::WriteLine;
using formats::WriteLineFromJson;
using formats::WriteLineToJson;

}  // namespace rockpoint::jsonl
