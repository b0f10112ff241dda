// Byte-string helpers shared by the CLI's renderers and its export format:
// base64, UTF-8 validity, the JSON form of an arbitrary byte string (a "text
// field"), and a printable rendering for tables.
//
// Text field: identifiers (threads, namespaces, checkpoint ids, channels,
// task ids) are arbitrary bytes. In JSON they are a plain string when the
// bytes are valid UTF-8, and {"b64": "<standard base64>"} otherwise, so that
// every byte string round-trips exactly and ordinary ids stay readable.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint::cli {

using Json = nlohmann::ordered_json;

// Standard base64 with padding (RFC 4648 section 4).
std::string Base64Encode(std::string_view data);
// Strict: InvalidArgument for a bad character, bad padding or length.
Result<std::string> Base64Decode(std::string_view text);

bool IsValidUtf8(std::string_view bytes);

// The text-field form of `bytes` (see above).
Json TextToJson(std::string_view bytes);
// The bytes of a text field. InvalidArgument naming `field` if `json` is
// neither a string nor {"b64": <valid base64>}.
Result<std::string> TextFromJson(const Json& json, std::string_view field);

// `bytes` for a terminal: valid UTF-8 stays as is except control characters
// and backslash, which are escaped (\n, \t, \\, \xNN); invalid bytes become
// \xNN. The empty string renders as "" (two quotes) so that it is visible.
std::string Printable(std::string_view bytes);

// The inverse of Printable, for ids typed on the command line (--escaped):
// \\, \n, \t and \xNN are decoded, "" (two quotes) is the empty string.
// InvalidArgument for any other backslash sequence.
Result<std::string> Unescape(std::string_view text);

}  // namespace rockpoint::cli
