// Tests of serde/value.h: kinds, Find, KindName and DebugString.
#include "rockpoint/value.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

namespace rockpoint::serde {
namespace {

using namespace std::string_literals;

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

}  // namespace
}  // namespace rockpoint::serde
