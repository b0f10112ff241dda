// Golden vectors for the tuple codec: the exact bytes of keys/FORMAT.md, and
// the rendering of Describe(). The vectors here and the table in FORMAT.md
// must list the same rows; a test checks that.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "doc_table.h"
#include "keys/tuple.h"
#include "serde/hex.h"

namespace rockpoint::keys {
namespace {

using serde::testing::Hex;

struct GoldenVector {
  std::string code;      // FORMAT.md's "code" column, e.g. "0x13" or "key".
  Tuple tuple;           // The tuple.
  std::string rendered;  // Describe() of the encoding.
  std::string hex;       // The encoding, bytes as space-separated hex.
};

std::string S(const char* data, size_t size) { return std::string(data, size); }

const std::vector<GoldenVector>& Vectors() {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  static const auto* vectors = new std::vector<GoldenVector>{
      {"0x00", {std::monostate{}}, "(null)", "00"},
      {"0x01", {Bytes{S("\x00\xff", 2)}}, R"((b"\x00\xff"))", "01 00 ff ff 00"},
      {"0x01", {Bytes{""}}, R"((b""))", "01 00"},
      {"0x02", {std::string("cp")}, R"(("cp"))", "02 63 70 00"},
      {"0x02", {S("a\0b", 3)}, R"(("a\x00b"))", "02 61 00 ff 62 00"},
      {"0x02", {std::string()}, R"((""))", "02 00"},
      {"0x0c", {kMin}, "(-9223372036854775808)", "0c 7f ff ff ff ff ff ff ff"},
      {"0x0c",
       {int64_t{-72057594037927937}},
       "(-72057594037927937)",
       "0c fe ff ff ff ff ff ff fe"},
      {"0x0d",
       {int64_t{-281474976710656}},
       "(-281474976710656)",
       "0d fe ff ff ff ff ff ff"},
      {"0x0e",
       {int64_t{-1099511627778}},
       "(-1099511627778)",
       "0e fe ff ff ff ff fd"},
      {"0x0f", {int64_t{-4294967296}}, "(-4294967296)", "0f fe ff ff ff ff"},
      {"0x10", {int64_t{-16777223}}, "(-16777223)", "10 fe ff ff f8"},
      {"0x11", {int64_t{-65536}}, "(-65536)", "11 fe ff ff"},
      {"0x12", {int64_t{-300}}, "(-300)", "12 fe d3"},
      {"0x12", {int64_t{-256}}, "(-256)", "12 fe ff"},
      {"0x13", {int64_t{-255}}, "(-255)", "13 00"},
      {"0x13", {int64_t{-1}}, "(-1)", "13 fe"},
      {"0x14", {int64_t{0}}, "(0)", "14"},
      {"0x15", {int64_t{1}}, "(1)", "15 01"},
      {"0x15", {int64_t{255}}, "(255)", "15 ff"},
      {"0x16", {int64_t{4660}}, "(4660)", "16 12 34"},
      {"0x17", {int64_t{1193046}}, "(1193046)", "17 12 34 56"},
      {"0x18", {int64_t{16777216}}, "(16777216)", "18 01 00 00 00"},
      {"0x19", {int64_t{4294967296}}, "(4294967296)", "19 01 00 00 00 00"},
      {"0x1a",
       {int64_t{1099511627776}},
       "(1099511627776)",
       "1a 01 00 00 00 00 00"},
      {"0x1b",
       {int64_t{281474976710656}},
       "(281474976710656)",
       "1b 01 00 00 00 00 00 00"},
      {"0x1c",
       {int64_t{72057594037927936}},
       "(72057594037927936)",
       "1c 01 00 00 00 00 00 00 00"},
      {"0x1c", {kMax}, "(9223372036854775807)", "1c 7f ff ff ff ff ff ff ff"},
      {"key",
       {std::string("cp"), std::string("t1"), std::string(),
        std::string("1ef")},
       R"(("cp", "t1", "", "1ef"))",
       "02 63 70 00 02 74 31 00 02 00 02 31 65 66 00"},
      {"key",
       {std::string("wr"), S("t\0", 2), std::string(), std::string("1ef"),
        std::string("~"), std::string("task"), int64_t{-1}},
       R"(("wr", "t\x00", "", "1ef", "~", "task", -1))",
       "02 77 72 00 02 74 00 ff 00 02 00 02 31 65 66 00 02 7e 00 02 74 61 73 "
       "6b 00 13 fe"},
      {"key",
       {std::string("bl"), std::string("t1"), std::string(),
        std::string("messages"), int64_t{3}},
       R"(("bl", "t1", "", "messages", 3))",
       "02 62 6c 00 02 74 31 00 02 00 02 6d 65 73 73 61 67 65 73 00 15 03"},
      {"key",
       {std::monostate{}, Bytes{"\"\\"}, std::string("a")},
       R"((null, b"\"\\", "a"))",
       "00 01 22 5c 00 02 61 00"},
  };
  return *vectors;
}

// Rows of the test-vector table in keys/FORMAT.md, as {code, tuple, hex}.
std::vector<std::vector<std::string>> FormatDocVectors() {
  return testing::ReadDocTable("keys/FORMAT.md", "test-vectors", "| code |");
}

TEST_CASE("golden vectors: Encode gives the documented bytes") {
  for (const GoldenVector& vector : Vectors()) {
    CAPTURE(vector.rendered);
    CHECK(Encode(vector.tuple) == Hex(vector.hex));
  }
}

TEST_CASE("golden vectors: Decode gives the tuple, Describe the rendering") {
  for (const GoldenVector& vector : Vectors()) {
    CAPTURE(vector.rendered);
    Result<Tuple> decoded = Decode(Hex(vector.hex));
    REQUIRE(decoded.ok());
    CHECK(*decoded == vector.tuple);
    CHECK(Describe(Hex(vector.hex)) == vector.rendered);
  }
}

TEST_CASE("golden vectors: FORMAT.md lists exactly the tested vectors") {
  const auto rows = FormatDocVectors();
  REQUIRE(rows.size() == Vectors().size());
  for (size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(i);
    REQUIRE(rows[i].size() == 3);
    CHECK(rows[i][0] == Vectors()[i].code);
    CHECK(rows[i][1] == Vectors()[i].rendered);
    CHECK(rows[i][2] == Vectors()[i].hex);
  }
}

TEST_CASE("golden vectors: every type code has a vector") {
  std::vector<std::string> codes = {"0x00", "0x01", "0x02"};
  for (int code = 0x0c; code <= 0x1c; ++code) {
    char name[8];
    std::snprintf(name, sizeof(name), "0x%02x", code);
    codes.push_back(name);
  }
  for (const std::string& code : codes) {
    CAPTURE(code);
    bool found = false;
    for (const GoldenVector& vector : Vectors()) {
      if (vector.code != code) continue;
      found = true;
      CHECK(Hex(vector.hex).substr(0, 1) ==
            std::string(1, static_cast<char>(std::stoi(code, nullptr, 16))));
    }
    CHECK(found);
  }
}

TEST_CASE("TupleWriter builds the same bytes as Encode and is reusable") {
  TupleWriter writer;
  writer.AddString("wr")
      .AddString(S("t\0", 2))
      .AddString("")
      .AddString("1ef")
      .AddString("~")
      .AddString("task")
      .AddInt(-1);
  CHECK(writer.data() ==
        Hex("02 77 72 00 02 74 00 ff 00 02 00 02 31 65 66 00 02 7e 00 02 "
            "74 61 73 6b 00 13 fe"));
  writer.Clear();
  CHECK(writer.data().empty());
  writer.AddNull().AddBytes(S("\x00\xff", 2)).Add(Element{int64_t{255}});
  CHECK(writer.Release() == Hex("00 01 00 ff ff 00 15 ff"));
  CHECK(Encode({}).empty());
}

TEST_CASE("Describe renders special bytes and falls back to hex") {
  CHECK(Describe("") == "()");
  CHECK(Describe(Encode({std::string("tab\there"), Bytes{"\x7f\x80"}})) ==
        R"(("tab\x09here", b"\x7f\x80"))");
  CHECK(Describe(Encode({std::string("say \"hi\" \\o/")})) ==
        R"(("say \"hi\" \\o/"))");
  CHECK(Describe(Hex("02 61")) == "<not a tuple: 02 61>");
  CHECK(Describe(Hex("15 00")) == "<not a tuple: 15 00>");
  CHECK(Describe(Hex("ff")) == "<not a tuple: ff>");
}

TEST_CASE("Describe elides long elements so a 1 MB thread id stays short") {
  const std::string thread(1 << 20, 'x');
  const std::string key = Encode({std::string("cp"), thread, std::string("")});
  const std::string shown = Describe(key);
  CHECK(shown ==
        "(\"cp\", \"" + std::string(64, 'x') + "\"...(+1048512 bytes), \"\")");
  CHECK(Describe(key, 0).size() > thread.size());  // 0: no limit.
  const std::string garbage(200, '\x03');          // not a tuple
  const std::string hex = Describe(garbage, 4);
  CHECK(hex == "<not a tuple: 03 03 03 03...(+196 bytes)>");
}

TEST_CASE("PrefixSuccessor examples") {
  CHECK(PrefixSuccessor("") == "");
  CHECK(PrefixSuccessor("\xff") == "");
  CHECK(PrefixSuccessor("\xff\xff\xff") == "");
  CHECK(PrefixSuccessor("a") == "b");
  CHECK(PrefixSuccessor("a\xff") == "b");
  CHECK(PrefixSuccessor("a\xff\xff") == "b");
  CHECK(PrefixSuccessor(S("\x00", 1)) == "\x01");
  CHECK(PrefixSuccessor("\x01\xfe") == "\x01\xff");
  CHECK(PrefixSuccessor(S("a\x00\xff", 3)) == S("a\x01", 2));
  CHECK(PrefixSuccessor(Hex("02 63 70 00")) == Hex("02 63 70 01"));
}

TEST_CASE("TuplePrefixUpperBound appends 0xff") {
  CHECK(TuplePrefixUpperBound("") == "\xff");
  CHECK(TuplePrefixUpperBound(Hex("02 63 70 00")) == Hex("02 63 70 00 ff"));
}

}  // namespace
}  // namespace rockpoint::keys
