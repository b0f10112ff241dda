// Tests of serde/value.h: kinds, Find, KindName, DebugString, and the
// nesting rule (no recursion at any depth; NestingDepth and CheckNesting).
#include "rockpoint/value.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "serde/nested_value.h"

namespace rockpoint::serde {
namespace {

using namespace std::string_literals;
using testing::kFarTooDeep;
using testing::NestedArrays;
using testing::NestedMaps;

TEST_CASE("Value kinds follow the constructors") {
  CHECK(Value().is_null());
  CHECK(Value(nullptr).is_null());
  CHECK(Value(true).is_bool());
  CHECK(Value(7).is_int());
  CHECK(Value(int64_t{7}).as_int() == 7);
  CHECK(Value(1.5).is_double());
  CHECK(Value("s").is_string());
  CHECK(Value(Bytes{"s"}).is_bytes());
  CHECK(Value::MakeArray().is_array());
  CHECK(Value::MakeMap().is_map());
  CHECK(Value(Ext{3, "x"}).is_ext());
  // A text string and a byte string with the same bytes are different.
  CHECK_FALSE(Value("s") == Value(Bytes{"s"}));
  CHECK_FALSE(Value(1) == Value(1.0));
}

TEST_CASE("Find looks up map keys only") {
  Value map(Value::Map{{"a", Value(1)}, {"b\0c"s, Value("x")}});
  REQUIRE(map.Find("a") != nullptr);
  CHECK(*map.Find("a") == Value(1));
  REQUIRE(map.Find("b\0c"s) != nullptr);
  CHECK(*map.Find("b\0c"s) == Value("x"));
  CHECK(map.Find("b") == nullptr);
  CHECK(map.Find("") == nullptr);
  CHECK(Value(Value::Array{Value("a")}).Find("a") == nullptr);
  CHECK(Value("a").Find("a") == nullptr);
  CHECK(Value().Find("a") == nullptr);
}

TEST_CASE("KindName names every kind") {
  CHECK(std::string(Value::KindName(Value::Kind::kNull)) == "null");
  CHECK(std::string(Value::KindName(Value::Kind::kBool)) == "bool");
  CHECK(std::string(Value::KindName(Value::Kind::kInt)) == "int");
  CHECK(std::string(Value::KindName(Value::Kind::kDouble)) == "double");
  CHECK(std::string(Value::KindName(Value::Kind::kString)) == "string");
  CHECK(std::string(Value::KindName(Value::Kind::kBytes)) == "bytes");
  CHECK(std::string(Value::KindName(Value::Kind::kArray)) == "array");
  CHECK(std::string(Value::KindName(Value::Kind::kMap)) == "map");
  CHECK(std::string(Value::KindName(Value::Kind::kExt)) == "ext");
}

TEST_CASE("DebugString renders scalars") {
  CHECK(Value().DebugString() == "null");
  CHECK(Value(true).DebugString() == "true");
  CHECK(Value(false).DebugString() == "false");
  CHECK(Value(-42).DebugString() == "-42");
  CHECK(Value(std::numeric_limits<int64_t>::min()).DebugString() ==
        "-9223372036854775808");
  CHECK(Value(1.0).DebugString() == "1.0");
  CHECK(Value(0.1).DebugString() == "0.1");
  CHECK(Value(-0.0).DebugString() == "-0.0");
  CHECK(Value(1e300).DebugString() == "1e+300");
  CHECK(Value(std::nan("")).DebugString() == "NaN");
  CHECK(Value(std::numeric_limits<double>::infinity()).DebugString() ==
        "Infinity");
  CHECK(Value(-std::numeric_limits<double>::infinity()).DebugString() ==
        "-Infinity");
}

TEST_CASE("DebugString escapes strings like JSON") {
  CHECK(Value("").DebugString() == "\"\"");
  CHECK(Value("a\"b\\c").DebugString() == R"("a\"b\\c")");
  CHECK(Value("\n\t\r\b\f").DebugString() == R"("\n\t\r\b\f")");
  CHECK(Value("a\0b"s).DebugString() == R"("a\u0000b")");
  CHECK(Value("\x1f\x7f").DebugString() == R"("\u001f\u007f")");
  // Valid UTF-8 passes through; stray bytes show as \xNN.
  CHECK(Value("h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80").DebugString() ==
        "\"h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  CHECK(Value("\xff\xc3").DebugString() == R"("\xff\xc3")");
  CHECK(Value("\xc0\x80").DebugString() == R"("\xc0\x80")");  // overlong
  CHECK(Value("\xed\xa0\x80").DebugString() ==
        R"("\xed\xa0\x80")");  // surrogate
}

TEST_CASE("DebugString renders bytes and ext as base64") {
  CHECK(Value(Bytes{""}).DebugString() == R"("b64:")");
  CHECK(Value(Bytes{"f"}).DebugString() == R"("b64:Zg==")");
  CHECK(Value(Bytes{"fo"}).DebugString() == R"("b64:Zm8=")");
  CHECK(Value(Bytes{"foo"}).DebugString() == R"("b64:Zm9v")");
  CHECK(Value(Bytes{"foob"}).DebugString() == R"("b64:Zm9vYg==")");
  CHECK(Value(Bytes{"\xff\xfe\x00"s}).DebugString() == R"("b64://4A")");
  CHECK(Value(Ext{5, "foo"}).DebugString() == R"({"$ext":5,"b64":"Zm9v"})");
  CHECK(Value(Ext{-128, ""}).DebugString() == R"({"$ext":-128,"b64":""})");
}

TEST_CASE("DebugString renders containers compactly, maps in key order") {
  Value value(Value::Map{
      {"z", Value(Value::Array{Value(1), Value("two"), Value()})},
      {"a", Value::MakeMap()},
      {"m", Value(Value::Map{{"k", Value(false)}})},
  });
  CHECK(value.DebugString() ==
        R"({"a":{},"m":{"k":false},"z":[1,"two",null]})");
  CHECK(Value::MakeArray().DebugString() == "[]");
}

TEST_CASE(
    "a Value nested far deeper than kMaxDepth copies, compares, moves "
    "and destroys without recursion") {
  for (bool maps : {false, true}) {
    CAPTURE(maps);
    const auto nested = [maps](int levels, Value leaf = Value()) {
      return maps ? NestedMaps(levels, std::move(leaf))
                  : NestedArrays(levels, std::move(leaf));
    };
    Value deep = nested(kFarTooDeep);
    {
      Value copy = deep;
      CHECK(copy == deep);
      Value moved = std::move(copy);
      CHECK(moved == deep);
      Value assigned = Value(1);
      assigned = moved;
      CHECK(assigned == deep);
      assigned = std::move(moved);
      CHECK(assigned == deep);
    }
    // Unequal only at the bottom: the walk reaches it either way.
    CHECK_FALSE(deep == nested(kFarTooDeep, Value(1)));
    CHECK_FALSE(nested(kFarTooDeep, Value(1)) == deep);
    CHECK_FALSE(deep == nested(kFarTooDeep - 1));
  }
}

TEST_CASE("assigning a Value one of its own parts") {
  Value value = NestedArrays(3, Value("leaf"));
  value = value.as_array()[0];
  CHECK(value == NestedArrays(2, Value("leaf")));
  value = std::move(value.as_array()[0]);
  CHECK(value == NestedArrays(1, Value("leaf")));
  Value map = NestedMaps(3, Value(7));
  map = *map.Find("k");
  CHECK(map == NestedMaps(2, Value(7)));
  map = std::move(map.as_map().at("k"));
  CHECK(map == NestedMaps(1, Value(7)));
  Value same = NestedMaps(2);
  const Value& alias = same;
  same = alias;
  CHECK(same == NestedMaps(2));
}

TEST_CASE("comparison and copies keep their meaning on nested values") {
  const Value a(Value::Map{
      {"list", Value(Value::Array{Value(1), Value::MakeMap(), Value("x")})},
      {"map", Value(Value::Map{{"n", Value()}, {"d", Value(2.5)}})},
  });
  Value b = a;
  CHECK(b == a);
  b.as_map()["map"].as_map()["d"] = Value(2.0);
  CHECK_FALSE(b == a);
  b = a;
  b.as_map()["list"].as_array().push_back(Value());
  CHECK_FALSE(b == a);
  b = a;
  b.as_map()["list"].as_array()[1] = Value::MakeArray();
  CHECK_FALSE(b == a);
  b = a;
  b.as_map()["other"] = Value();
  CHECK_FALSE(b == a);
  // NaN is unequal to itself, at any depth, as a double is.
  const Value nan(Value::Array{Value(std::nan(""))});
  CHECK_FALSE(nan == nan);
}

TEST_CASE("DebugString shows kMaxDepth levels and elides deeper ones") {
  const std::string at_limit = NestedArrays(kMaxDepth).DebugString();
  CHECK(at_limit ==
        std::string(kMaxDepth, '[') + "null" + std::string(kMaxDepth, ']'));
  CHECK(NestedArrays(kMaxDepth + 1).DebugString() ==
        std::string(kMaxDepth, '[') + "[...]" + std::string(kMaxDepth, ']'));
  const std::string far = NestedMaps(kFarTooDeep).DebugString();
  std::string expected;
  for (int level = 0; level < kMaxDepth; ++level) expected += "{\"k\":";
  expected += "{...}" + std::string(kMaxDepth, '}');
  CHECK(far == expected);
}

TEST_CASE("NestingDepth counts maps and arrays on the deepest path") {
  CHECK(NestingDepth(Value()) == 0);
  CHECK(NestingDepth(Value(Ext{1, "[[["})) == 0);
  CHECK(NestingDepth(Value::MakeArray()) == 1);
  CHECK(NestingDepth(Value::MakeMap()) == 1);
  const Value mixed(Value::Map{
      {"a", Value(1)},
      {"b", NestedArrays(3)},
      {"c", Value(Value::Array{Value(), NestedMaps(5), Value::MakeArray()})},
  });
  CHECK(NestingDepth(mixed) == 7);
  CHECK(NestingDepth(NestedArrays(kMaxDepth)) == kMaxDepth);
  // Counting stops one level past the cap.
  CHECK(NestingDepth(NestedMaps(kFarTooDeep)) == kMaxDepth + 1);
  CHECK(NestingDepth(mixed, 3) == 4);
  CHECK(NestingDepth(mixed, 7) == 7);
}

TEST_CASE("CheckNesting accepts kMaxDepth levels and refuses one more") {
  CHECK(CheckNesting(NestedArrays(kMaxDepth), "value").ok());
  CHECK(CheckNesting(NestedMaps(kMaxDepth), "value").ok());
  for (const Value& deeper :
       {NestedArrays(kMaxDepth + 1), NestedMaps(kFarTooDeep)}) {
    Status status = CheckNesting(deeper, "the value");
    CHECK(status.IsInvalidArgument());
    CHECK(status.message() ==
          "the value nests deeper than 256 maps and arrays");
  }
  CHECK(CheckNesting(NestedArrays(2), "x", 2).ok());
  CHECK(CheckNesting(NestedArrays(3), "x", 2).message() ==
        "x nests deeper than 2 maps and arrays");
}

}  // namespace
}  // namespace rockpoint::serde
