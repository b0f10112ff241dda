// MsgpackItemLength and ForEachMapEntry: every msgpack type's length, a
// map's entries as DecodeMsgpack would read them, truncated and malformed
// input refused, deep nesting walked without recursion.
#include "serde/msgpack_map_entries.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "rockpoint/msgpack_codec.h"
#include "rockpoint/value.h"

namespace rockpoint::serde {
namespace {

std::vector<Value> SampleValues() {
  Value::Map nested;
  nested["a"] = Value(Value::Array{1, "x", Value()});
  nested["b"] = Value(Bytes{std::string(300, 'b')});
  return {Value(),
          Value(true),
          Value(int64_t{7}),
          Value(int64_t{-33}),
          Value(int64_t{1} << 40),
          Value(int64_t{-(int64_t{1} << 40)}),
          Value(2.5),
          Value(std::string(31, 's')),
          Value(std::string(70000, 'l')),
          Value(Bytes{std::string("\x00\x01", 2)}),
          Value(Ext{7, "abcd"}),
          Value(Ext{5, std::string(20, 'e')}),
          Value(Value::Array(20, Value(int64_t{1}))),
          Value(nested)};
}

TEST_CASE("MsgpackItemLength is each item's encoded length") {
  for (const Value& value : SampleValues()) {
    const std::string encoded = EncodeMsgpack(value);
    CAPTURE(value.DebugString().substr(0, 60));
    auto length = MsgpackItemLength(encoded + "trailing");
    REQUIRE(length.ok());
    CHECK(*length == encoded.size());
    // Any cut of the item is Corruption, never a read past the end.
    for (size_t cut = 0; cut < encoded.size(); cut += 1 + cut / 8) {
      CHECK(MsgpackItemLength(std::string_view(encoded).substr(0, cut))
                .status()
                .IsCorruption());
    }
  }
  CHECK(MsgpackItemLength("\xc1").status().IsCorruption());
}

TEST_CASE("ForEachMapEntry gives each key and the bytes of its value") {
  Value::Map map;
  const std::vector<Value> samples = SampleValues();
  for (size_t i = 0; i < samples.size(); ++i) {
    map["k" + std::to_string(100 + i)] = samples[i];
  }
  const std::string encoded = EncodeMsgpack(Value(map));
  std::map<std::string, Value> seen;
  REQUIRE(ForEachMapEntry(encoded, [&](std::string_view key,
                                       std::string_view value) {
            auto decoded = DecodeMsgpack(value);
            REQUIRE(decoded.ok());
            seen.emplace(std::string(key), std::move(decoded).value());
            return true;
          }).ok());
  CHECK(seen.size() == map.size());
  for (const auto& [key, value] : map) CHECK(seen.at(key) == value);

  // Stops when asked.
  int visits = 0;
  REQUIRE(ForEachMapEntry(encoded, [&](std::string_view, std::string_view) {
            return ++visits < 2;
          }).ok());
  CHECK(visits == 2);
}

TEST_CASE("ForEachMapEntry refuses what is not exactly one map") {
  const auto nothing = [](std::string_view, std::string_view) { return true; };
  const std::string map = EncodeMsgpack(Value(Value::Map{{"a", 1}, {"b", 2}}));
  CHECK(ForEachMapEntry(EncodeMsgpack(Value(Value::Array{1})), nothing)
            .IsCorruption());
  CHECK(ForEachMapEntry(map + "x", nothing).IsCorruption());
  CHECK(ForEachMapEntry(map.substr(0, map.size() - 1), nothing).IsCorruption());
  CHECK(ForEachMapEntry("", nothing).IsCorruption());
  // A map whose key is an int: {1: 2}.
  CHECK(
      ForEachMapEntry(std::string("\x81\x01\x02", 3), nothing).IsCorruption());
}

TEST_CASE("MsgpackItemLength walks deep nesting without recursion") {
  // 100,000 nested one-element arrays around nil.
  std::string deep(100000, '\x91');
  deep.push_back('\xc0');
  auto length = MsgpackItemLength(deep);
  REQUIRE(length.ok());
  CHECK(*length == deep.size());
  // A header promising more items than there are bytes is refused at once.
  CHECK(MsgpackItemLength(std::string("\xdd\xff\xff\xff\xff", 5))
            .status()
            .IsCorruption());
}

}  // namespace
}  // namespace rockpoint::serde
