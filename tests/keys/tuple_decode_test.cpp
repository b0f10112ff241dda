// Strict decoding: each malformed input is Corruption naming the byte offset,
// and a failed TupleReader read leaves the reader and the output unchanged.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "keys/tuple.h"
#include "serde/hex.h"

namespace rockpoint::keys {
namespace {

using serde::testing::Hex;

// Decode(hex) must fail with Corruption mentioning `needle` and the offset.
void CheckCorrupt(const std::string& hex, size_t offset,
                  const std::string& needle) {
  CAPTURE(hex);
  Result<Tuple> decoded = Decode(Hex(hex));
  REQUIRE_FALSE(decoded.ok());
  const Status status = decoded.status();
  CHECK(status.IsCorruption());
  CAPTURE(status.ToString());
  CHECK(status.message().find(needle) != std::string::npos);
  CHECK(status.message().find("at byte offset " + std::to_string(offset)) !=
        std::string::npos);
}

TEST_CASE("unknown type codes are Corruption") {
  for (int code : {0x03, 0x05, 0x0b, 0x1d, 0x20, 0x40, 0x80, 0xfe, 0xff}) {
    char hex[4];
    std::snprintf(hex, sizeof(hex), "%02x", code);
    CheckCorrupt(hex, 0, "unknown type code 0x" + std::string(hex));
    CheckCorrupt(std::string("02 61 00 15 07 ") + hex, 5, "unknown type code");
  }
  // 0xff right after a complete element (not after a string's 0x00).
  CheckCorrupt("14 ff", 1, "unknown type code 0xff");
}

TEST_CASE("truncated integers are Corruption") {
  CheckCorrupt("15", 0, "truncated integer");
  CheckCorrupt("16 01", 0, "truncated integer");
  CheckCorrupt("1c 7f ff ff ff ff ff ff", 0, "truncated integer");
  CheckCorrupt("13", 0, "truncated integer");
  CheckCorrupt("0c 7f ff ff", 0, "truncated integer");
  CheckCorrupt("02 61 00 17 01 02", 3, "truncated integer");
}

TEST_CASE("unterminated strings are Corruption") {
  CheckCorrupt("02", 0, "unterminated string");
  CheckCorrupt("01", 0, "unterminated bytes");
  CheckCorrupt("02 61 62", 0, "unterminated string");
  CheckCorrupt("02 61 00 ff", 0, "unterminated string");
  CheckCorrupt("01 00 ff 00 ff", 0, "unterminated bytes");
  CheckCorrupt("14 02 61 00 02 ff ff", 4, "unterminated string");
}

TEST_CASE("non-minimal integers are Corruption") {
  CheckCorrupt("15 00", 0, "non-minimal integer");
  CheckCorrupt("16 00 ff", 0, "non-minimal integer");
  CheckCorrupt("1c 00 ff ff ff ff ff ff ff", 0, "non-minimal integer");
  CheckCorrupt("13 ff", 0, "non-minimal integer");  // Would be -0.
  CheckCorrupt("12 ff 00", 0, "non-minimal integer");
  CheckCorrupt("0c ff 00 00 00 00 00 00 00", 0, "non-minimal integer");
  CheckCorrupt("00 15 01 15 00", 3, "non-minimal integer");
}

TEST_CASE("integers outside int64 are Corruption") {
  CheckCorrupt("1c 80 00 00 00 00 00 00 00", 0, "out of int64 range");
  CheckCorrupt("1c ff ff ff ff ff ff ff ff", 0, "out of int64 range");
  // Magnitude 2^63 + 1 and 2^64 - 1.
  CheckCorrupt("0c 7f ff ff ff ff ff ff fe", 0, "out of int64 range");
  CheckCorrupt("0c 00 00 00 00 00 00 00 00", 0, "out of int64 range");
  // The extremes themselves decode.
  CHECK(Decode(Hex("0c 7f ff ff ff ff ff ff ff"))->at(0) ==
        Element{std::numeric_limits<int64_t>::min()});
  CHECK(Decode(Hex("1c 7f ff ff ff ff ff ff ff"))->at(0) ==
        Element{std::numeric_limits<int64_t>::max()});
  CHECK(Decode(Hex("0c 7f ff ff ff ff ff ff fe")).status().ToString() ==
        "Corruption: tuple: integer out of int64 range at byte offset 0");
}

TEST_CASE("a mistyped read fails and leaves the reader unchanged") {
  const std::string encoded =
      Encode({std::string("cp"), int64_t{-7}, Bytes{"b"}, std::monostate{}});
  TupleReader reader(encoded);
  std::string text = "untouched";
  int64_t number = 42;

  CHECK(reader.ReadInt(&number).IsCorruption());
  CHECK(reader.ReadBytes(&text).IsCorruption());
  CHECK(reader.ReadNull().IsCorruption());
  CHECK(reader.position() == 0);
  CHECK(number == 42);
  CHECK(text == "untouched");
  REQUIRE(reader.ReadString(&text).ok());
  CHECK(text == "cp");
  CHECK(reader.position() == 4);

  const Status mistyped = reader.ReadString(&text);
  CHECK(mistyped.IsCorruption());
  CHECK(mistyped.message() ==
        "tuple: expected string, found integer code 0x13 at byte offset 4");
  CHECK(text == "cp");
  CHECK(reader.position() == 4);
  CHECK(reader.PeekTypeCode() == 0x13);
  REQUIRE(reader.ReadInt(&number).ok());
  CHECK(number == -7);

  REQUIRE(reader.ReadBytes(&text).ok());
  CHECK(text == "b");
  REQUIRE(reader.ReadNull().ok());
  CHECK(reader.done());
  CHECK(reader.position() == encoded.size());

  Element element = std::string("kept");
  CHECK(reader.Read(&element).IsCorruption());
  CHECK(reader.ReadNull().IsCorruption());
  CHECK(reader.ReadInt(&number).IsCorruption());
  CHECK(reader.ReadString(&text).IsCorruption());
  CHECK(element == Element{std::string("kept")});
  CHECK(reader.position() == encoded.size());
}

TEST_CASE("a failed read of a damaged element leaves the reader unchanged") {
  const std::string encoded = Hex("02 61 00 02 62 63");  // "a", then bad.
  TupleReader reader(encoded);
  Element element;
  REQUIRE(reader.Read(&element).ok());
  CHECK(element == Element{std::string("a")});
  element = int64_t{5};
  const Status status = reader.Read(&element);
  CHECK(status.IsCorruption());
  CHECK(status.message().find("byte offset 3") != std::string::npos);
  CHECK(element == Element{int64_t{5}});
  CHECK(reader.position() == 3);
  CHECK_FALSE(reader.done());
}

TEST_CASE("a string followed by an element is split at the lone 0x00") {
  // 0x00 then a type code terminates; 0x00 0xff is an escaped NUL.
  Result<Tuple> decoded = Decode(Hex("02 61 00 00 02 00 ff 00 14"));
  REQUIRE(decoded.ok());
  CHECK(*decoded == Tuple{std::string("a"), std::monostate{},
                          std::string(1, '\0'), int64_t{0}});
}

}  // namespace
}  // namespace rockpoint::keys
