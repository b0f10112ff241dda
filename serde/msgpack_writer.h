// Low-level canonical msgpack writer, private to serde/.
//
// Each call appends one msgpack item, or the header of a container whose
// elements the caller appends next, to *out. Integers and lengths take the
// smallest msgpack form; a double is always float64 (NaN written as the one
// quiet NaN 0x7ff8000000000000, -0.0 kept). The value codec and the record
// encoders share it so that both produce the grammar in serde/FORMAT.md.
//
// REQUIRES: strings, byte strings and ext payloads shorter than 2^32 bytes;
// containers with fewer than 2^32 elements (msgpack's limits).
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rockpoint::serde::internal {

void AppendNil(std::string* out);
void AppendBool(bool b, std::string* out);
void AppendInt(int64_t i, std::string* out);
void AppendFloat64(double d, std::string* out);
void AppendStr(std::string_view s, std::string* out);
void AppendBin(std::string_view b, std::string* out);
void AppendExt(int8_t type, std::string_view data, std::string* out);
void AppendArrayHeader(size_t size, std::string* out);
void AppendMapHeader(size_t size, std::string* out);

}  // namespace rockpoint::serde::internal
