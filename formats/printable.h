// A printable rendering of arbitrary bytes (ids in tables and messages),
// and its inverse for ids typed on a command line.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint::formats {

// `bytes` for a terminal: valid UTF-8 stays as is except control characters
// and backslash, which are escaped (\n, \t, \\, \xNN); invalid bytes become
// \xNN. The empty string renders as "" (two quotes) so that it is visible.
std::string Printable(std::string_view bytes);

// The inverse of Printable, for ids typed on the command line (--escaped):
// \\, \n, \t and \xNN are decoded, "" (two quotes) is the empty string.
// InvalidArgument for any other backslash sequence.
Result<std::string> Unescape(std::string_view text);

}  // namespace rockpoint::formats
