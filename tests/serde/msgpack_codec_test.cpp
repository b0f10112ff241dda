// Tests of serde/msgpack_codec.h: golden encodings, strict decoding and
// seeded random round trips. Adversarial input is in msgpack_fuzz_test.cpp.
#include "rockpoint/msgpack_codec.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "serde/hex.h"
#include "serde/nested_value.h"
#include "serde/random_value.h"

namespace rockpoint::serde {
namespace {

using namespace std::string_literals;
using testing::ContainsNaN;
using testing::Hex;
using testing::kFarTooDeep;
using testing::NestedArrays;
using testing::NestedMaps;
using testing::RandomValues;
using testing::Repeat;
using testing::ToHex;

void CheckGolden(const Value& value, const std::string& hex) {
  CAPTURE(value.DebugString());
  CHECK(ToHex(EncodeMsgpack(value)) == hex);
  Result<Value> decoded = DecodeMsgpack(Hex(hex));
  REQUIRE(decoded.ok());
  CHECK(*decoded == value);
}

Status DecodeStatus(const std::string& hex) {
  return DecodeMsgpack(Hex(hex)).status();
}

TEST_CASE("golden: scalars in their smallest form") {
  CheckGolden(Value(), "c0");
  CheckGolden(Value(false), "c2");
  CheckGolden(Value(true), "c3");
  CheckGolden(Value(0), "00");
  CheckGolden(Value(127), "7f");
  CheckGolden(Value(128), "cc80");
  CheckGolden(Value(255), "ccff");
  CheckGolden(Value(256), "cd0100");
  CheckGolden(Value(65535), "cdffff");
  CheckGolden(Value(int64_t{65536}), "ce00010000");
  CheckGolden(Value(int64_t{4294967296}), "cf0000000100000000");
  CheckGolden(Value(std::numeric_limits<int64_t>::max()), "cf7fffffffffffffff");
  CheckGolden(Value(-1), "ff");
  CheckGolden(Value(-32), "e0");
  CheckGolden(Value(-33), "d0df");
  CheckGolden(Value(-128), "d080");
  CheckGolden(Value(-129), "d1ff7f");
  CheckGolden(Value(-32769), "d2ffff7fff");
  CheckGolden(Value(std::numeric_limits<int64_t>::min()), "d38000000000000000");
}

TEST_CASE("golden: doubles are always float64") {
  CheckGolden(Value(1.0), "cb3ff0000000000000");
  CheckGolden(Value(0.0), "cb0000000000000000");
  CheckGolden(Value(-1.5), "cbbff8000000000000");
  // -0.0 keeps its sign (it compares equal to 0.0, so check the bytes).
  CHECK(ToHex(EncodeMsgpack(Value(-0.0))) == "cb8000000000000000");
  Result<Value> negative_zero = DecodeMsgpack(Hex("cb8000000000000000"));
  REQUIRE(negative_zero.ok());
  REQUIRE(negative_zero->is_double());
  CHECK(std::signbit(negative_zero->as_double()));
  // Every NaN is written as the one quiet NaN.
  double payload_nan;
  uint64_t bits = 0xfff0000000000123ULL;
  std::memcpy(&payload_nan, &bits, sizeof(bits));
  CHECK(ToHex(EncodeMsgpack(Value(payload_nan))) == "cb7ff8000000000000");
  CHECK(ToHex(EncodeMsgpack(Value(std::nan("")))) == "cb7ff8000000000000");
  Result<Value> nan = DecodeMsgpack(Hex("cb7ff8000000000000"));
  REQUIRE(nan.ok());
  CHECK(std::isnan(nan->as_double()));
  CheckGolden(Value(std::numeric_limits<double>::infinity()),
              "cb7ff0000000000000");
}

TEST_CASE("golden: strings, bytes and ext") {
  CheckGolden(Value(""), "a0");
  CheckGolden(Value("a\0b"s), "a3610062");
  CheckGolden(Value(std::string(31, 'x')), "bf" + Repeat("78", 31));
  CHECK(ToHex(EncodeMsgpack(Value(std::string(32, 'x')))).substr(0, 4) ==
        "d920");
  CHECK(ToHex(EncodeMsgpack(Value(std::string(256, 'x')))).substr(0, 6) ==
        "da0100");
  CHECK(ToHex(EncodeMsgpack(Value(std::string(65536, 'x')))).substr(0, 10) ==
        "db00010000");
  CheckGolden(Value(Bytes{""}), "c400");
  CheckGolden(Value(Bytes{"\x00\x01"s}), "c4020001");
  CHECK(
      ToHex(EncodeMsgpack(Value(Bytes{std::string(256, 'x')}))).substr(0, 6) ==
      "c50100");
  CheckGolden(Value(Ext{5, "a"}), "d40561");
  CheckGolden(Value(Ext{5, "ab"}), "d5056162");
  CheckGolden(Value(Ext{-1, ""}), "c700ff");
  CheckGolden(Value(Ext{7, "abc"}), "c70307616263");
  CheckGolden(Value(Ext{-128, std::string(16, '\0')}),
              "d880" + std::string(32, '0'));
}

TEST_CASE("golden: containers, map keys ascending") {
  CheckGolden(Value::MakeArray(), "90");
  CheckGolden(Value::MakeMap(), "80");
  CheckGolden(Value(Value::Array{Value(1), Value("x")}), "9201a178");
  CheckGolden(Value(Value::Map{{"b", Value(1)}, {"a", Value(2)}}),
              "82a16102a16201");
  CheckGolden(
      Value(Value::Map{{"k", Value(Value::Array{Value(), Value(true)})}}),
      "81a16b92c0c3");
}

TEST_CASE("decoding accepts other valid encoders' forms") {
  // Non-minimal integer forms.
  Result<Value> wide = DecodeMsgpack(Hex("d30000000000000005"));
  REQUIRE(wide.ok());
  CHECK(*wide == Value(5));
  Result<Value> unsigned_wide = DecodeMsgpack(Hex("cf0000000000000005"));
  REQUIRE(unsigned_wide.ok());
  CHECK(*unsigned_wide == Value(5));
  // float32 becomes a double.
  Result<Value> f32 = DecodeMsgpack(Hex("ca3fc00000"));
  REQUIRE(f32.ok());
  CHECK(*f32 == Value(1.5));
  // Unsorted map keys are sorted on the way in.
  Result<Value> unsorted = DecodeMsgpack(Hex("82a16201a16102"));
  REQUIRE(unsorted.ok());
  CHECK(*unsorted == Value(Value::Map{{"a", Value(2)}, {"b", Value(1)}}));
  // str8 for a short string.
  Result<Value> str8 = DecodeMsgpack(Hex("d90161"));
  REQUIRE(str8.ok());
  CHECK(*str8 == Value("a"));
}

TEST_CASE("decoding rejects malformed input as Corruption") {
  CHECK(DecodeMsgpack("").status().IsCorruption());
  CHECK(DecodeStatus("c1").IsCorruption());                  // never used
  CHECK(DecodeStatus("c0c0").IsCorruption());                // trailing
  CHECK(DecodeStatus("9201").IsCorruption());                // truncated
  CHECK(DecodeStatus("a3616263ff").IsCorruption());          // trailing
  CHECK(DecodeStatus("cf8000000000000000").IsCorruption());  // > INT64_MAX
  CHECK(DecodeStatus("cfffffffffffffffff").IsCorruption());
  CHECK(DecodeStatus("810101").IsCorruption());          // int key
  CHECK(DecodeStatus("81c401610101").IsCorruption());    // bin key
  CHECK(DecodeStatus("81c001").IsCorruption());          // nil key
  CHECK(DecodeStatus("819001").IsCorruption());          // array key
  CHECK(DecodeStatus("818001").IsCorruption());          // map key
  CHECK(DecodeStatus("82a16101a16102").IsCorruption());  // duplicate key
  Status trailing = DecodeStatus("c0c0");
  CHECK(trailing.message().find("trailing") != std::string::npos);
  Status too_big = DecodeStatus("cf8000000000000000");
  CHECK(too_big.message().find("9223372036854775808") != std::string::npos);
  Status bad_key = DecodeStatus("810101");
  CHECK(bad_key.message().find("map key is not a string") != std::string::npos);
}

TEST_CASE("nesting up to kMaxDepth decodes, one more level does not") {
  std::string ok_depth = std::string(kMaxDepth, '\x91') + "\xc0";
  Result<Value> deep = DecodeMsgpack(ok_depth);
  REQUIRE(deep.ok());
  CHECK(EncodeMsgpack(*deep) == ok_depth);
  std::string too_deep = std::string(kMaxDepth + 1, '\x91') + "\xc0";
  Status status = DecodeMsgpack(too_deep).status();
  CHECK(status.IsCorruption());
  CHECK(status.message().find("nesting deeper than 256") != std::string::npos);
}

TEST_CASE("a Value kMaxDepth deep round trips; deeper encodes but is refused") {
  for (const Value& deepest : {NestedArrays(kMaxDepth, Value(1)),
                               NestedMaps(kMaxDepth, Value("leaf"))}) {
    Result<Value> decoded = DecodeMsgpack(EncodeMsgpack(deepest));
    REQUIRE(decoded.ok());
    CHECK(*decoded == deepest);
  }
  // Encoding does not recurse, so even a far deeper Value encodes; the
  // decoder refuses what it cannot read back.
  for (int levels : {kMaxDepth + 1, kFarTooDeep}) {
    CAPTURE(levels);
    const std::string arrays = EncodeMsgpack(NestedArrays(levels));
    CHECK(arrays == std::string(levels, '\x91') + "\xc0");
    Status status = DecodeMsgpack(arrays).status();
    CHECK(status.IsCorruption());
    CHECK(status.message().find("nesting deeper than 256") !=
          std::string::npos);
    std::string maps;
    AppendMsgpack(NestedMaps(levels), &maps);
    CHECK(maps.size() == 3 * static_cast<size_t>(levels) + 1);
    CHECK(DecodeMsgpack(maps).status().IsCorruption());
  }
}

TEST_CASE("AppendMsgpack appends to existing bytes") {
  std::string out = "prefix";
  AppendMsgpack(Value(1), &out);
  AppendMsgpack(Value("a"), &out);
  CHECK(out ==
        "prefix\x01\xa1"
        "a");
}

TEST_CASE("random Values round trip exactly") {
  RandomValues random(20240611);
  for (int i = 0; i < 3000; ++i) {
    Value value = random.Any();
    std::string encoded = EncodeMsgpack(value);
    Result<Value> decoded = DecodeMsgpack(encoded);
    REQUIRE_MESSAGE(decoded.ok(), decoded.status().ToString());
    // Canonical: re-encoding gives the same bytes (this also compares NaNs
    // and the sign of zero, which == cannot).
    CHECK(EncodeMsgpack(*decoded) == encoded);
    if (!ContainsNaN(value)) CHECK(*decoded == value);
  }
}

TEST_CASE("equal Values encode to equal bytes") {
  Value::Map forward, backward;
  for (int i = 0; i < 50; ++i) forward.emplace(std::to_string(i), Value(i));
  for (int i = 49; i >= 0; --i) backward.emplace(std::to_string(i), Value(i));
  CHECK(EncodeMsgpack(Value(forward)) == EncodeMsgpack(Value(backward)));
}

}  // namespace
}  // namespace rockpoint::serde
