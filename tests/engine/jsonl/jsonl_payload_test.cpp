// The stored bytes of values and writes in a journal (payload_json.h): each
// payload comes back byte for byte, after a replay and after a compaction,
// whichever form the journal chose; canonical msgpack and UTF-8 text are
// written readably, everything else as base64.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/jsonl/journal_test_util.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing::journal;  // NOLINT: test helpers

struct Payload {
  const char* name;
  TypedValue value;
  const char* form;  // the member the journal writes it under.
};

// `depth` arrays, one inside the other, around 1.
Value Nested(int depth) {
  Value value(int64_t{1});
  for (int i = 0; i < depth; ++i) value = Value(Value::Array{value});
  return value;
}

// `depth` maps keyed "$k" (each three JSON levels in the {"$map": ...}
// form), one inside the other, around 1.
Value NestedDollarMaps(int depth) {
  Value value(int64_t{1});
  for (int i = 0; i < depth; ++i) {
    Value::Map map;
    map["$k"] = std::move(value);
    value = Value(std::move(map));
  }
  return value;
}

std::vector<Payload> Payloads() {
  const std::string msgpack(serde::kMsgpackType);
  Value::Map message;
  message["role"] = Value("user");
  message["content"] = Value("hello from a person");
  message["score"] = Value(0.5);
  message["$odd key"] = Value(nullptr);
  return {
      {"canonical msgpack",
       {msgpack, serde::EncodeMsgpack(Value(message))},
       "msgpack"},
      // 1 as a uint64 (0xcf ...): a Value, but not its canonical encoding.
      {"non-canonical msgpack",
       {msgpack, std::string("\xcf\0\0\0\0\0\0\0\x01", 9)},
       "b64"},
      {"msgpack type, not msgpack", {msgpack, "not msgpack"}, "text"},
      {"msgpack nested at the depth limit",
       {msgpack, serde::EncodeMsgpack(Nested(serde::kMaxDepth - 1))},
       "msgpack"},
      // 768 JSON levels inside the line's object: past kMaxJsonDepth.
      {"msgpack too deep for a line",
       {msgpack, serde::EncodeMsgpack(NestedDollarMaps(serde::kMaxDepth))},
       "b64"},
      {"json text", {"json", "{\"a\": [1, 2]}\n\t\\"}, "text"},
      {"text with NUL and controls",
       {"str", std::string("a\0b\x01\x7f", 5)},
       "text"},
      {"empty bytes", {"json", ""}, "text"},
      {"invalid UTF-8", {"bytes", std::string("\xff\xfe\x80", 3)}, "b64"},
  };
}

TEST_CASE("jsonl payload: every payload reads back byte for byte") {
  TempDir dir;
  const std::string path = dir.Sub("payloads.jsonl");
  const std::vector<Payload> payloads = Payloads();
  {
    auto store = MustOpen(Options(path));
    for (size_t i = 0; i < payloads.size(); ++i) {
      const std::string channel = "ch" + std::to_string(i);
      DoPut(*store, {.thread = "t",
                     .id = CpId(static_cast<int>(i) + 1),
                     .parent = i == 0 ? std::optional<std::string>()
                                      : CpId(static_cast<int>(i)),
                     .values = {{channel, payloads[i].value}},
                     .versions = {{channel, int64_t{1}}}});
      RP_REQUIRE_OK(store->PutWrites(Cfg("t", CpId(static_cast<int>(i) + 1)),
                                     {ChannelWrite{channel, payloads[i].value}},
                                     "task"));
    }
  }
  // Each line names the form the table of payload_json.h gives it.
  const std::vector<std::string> lines = SplitLines(ReadBytes(path));
  for (const Payload& payload : payloads) {
    CAPTURE(payload.name);
    size_t with_form = 0;
    for (const std::string& line : lines) {
      const auto json = nlohmann::ordered_json::parse(line);
      if (json["kind"] != "value" && json["kind"] != "write") continue;
      if (json["type"] != payload.value.type) continue;
      if (json.contains(payload.form)) ++with_form;
    }
    CHECK(with_form > 0);
  }
  for (const bool compact : {false, true}) {
    CAPTURE(compact);
    auto store = MustOpen(Options(path));
    if (compact) RP_REQUIRE_OK(store->Compact());
    for (size_t i = 0; i < payloads.size(); ++i) {
      CAPTURE(payloads[i].name);
      auto tuple =
          Unwrap(store->GetTuple(Cfg("t", CpId(static_cast<int>(i) + 1))));
      REQUIRE(tuple.has_value());
      const std::string channel = "ch" + std::to_string(i);
      CHECK(tuple->checkpoint.channel_values.at(channel) == payloads[i].value);
      REQUIRE(tuple->pending_writes.size() == 1);
      CHECK(tuple->pending_writes[0].value == payloads[i].value);
    }
  }
}

TEST_CASE("jsonl payload: a line with no payload member or two is Corruption") {
  TempDir dir;
  const std::string path = dir.Sub("bad.jsonl");
  const std::string value_prefix =
      R"({"kind":"value","thread":"t","ns":"","channel":"c","version":1,"type":"json")";
  for (const std::string& members :
       {std::string(""), std::string(R"(,"text":"a","b64":"YQ==")"),
        std::string(R"(,"text":1)"), std::string(R"(,"msgpack":{"$bad":1})")}) {
    CAPTURE(members);
    // A version 1 journal: its lines carry no checksum.
    WriteBytes(path, std::string(kHeaderLineV1) + "\n" + value_prefix +
                         members + "}\n" + std::string(kCommitLineV1) + "\n");
    auto opened = JsonlCheckpointer::Open(Options(path));
    REQUIRE(!opened.ok());
    CHECK(opened.status().IsCorruption());
    CHECK(opened.status().message().find("line 2") != std::string::npos);
  }
}

}  // namespace
}  // namespace rockpoint
