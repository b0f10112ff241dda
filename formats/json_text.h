// The byte-string forms of rockpoint's JSON formats (the CLI's export,
// tools/cli/FORMAT_JSONL.md, and the journal of the JSONL backend,
// engine/jsonl/FORMAT.md): base64, UTF-8 validity and "text fields".
//
// Text field: identifiers (threads, namespaces, checkpoint ids, channels,
// task ids) are arbitrary bytes. In JSON they are a plain string when the
// bytes are valid UTF-8, and {"b64": "<standard base64>"} otherwise, so that
// every byte string round-trips exactly and ordinary ids stay readable.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/status.h"

namespace rockpoint::formats {

using Json = nlohmann::ordered_json;

// Standard base64 with padding (RFC 4648 section 4).
std::string Base64Encode(std::string_view data);
// Strict: InvalidArgument for a bad character, bad padding or length, or a
// non-canonical last character.
Result<std::string> Base64Decode(std::string_view text);

bool IsValidUtf8(std::string_view bytes);
// The length of the valid UTF-8 sequence starting at bytes[i], or 0.
size_t Utf8SequenceLength(std::string_view bytes, size_t i);

// The text-field form of `bytes` (see above).
Json TextToJson(std::string_view bytes);
// The bytes of a text field. InvalidArgument naming `field` if `json` is
// neither a string nor {"b64": <valid base64>}.
Result<std::string> TextFromJson(const Json& json, std::string_view field);

// A JSON array of the text fields of `texts` (any range of strings).
template <typename Texts>
Json TextsToJson(const Texts& texts) {
  Json array = Json::array();
  for (const auto& text : texts) array.push_back(TextToJson(text));
  return array;
}
// The bytes of an array of text fields. InvalidArgument naming `field` if
// `json` is not an array or an item is not a text field.
Result<std::vector<std::string>> TextsFromJson(const Json& json,
                                               std::string_view field);

}  // namespace rockpoint::formats
