// show, writes, diff and history on values LangGraph's serializers wrote:
// Python's msgpack extensions (the payloads below are the bytes
// JsonPlusSerializer.dumps_typed of langgraph-checkpoint 4.3.2 returns)
// and LangGraph.js's lc JSON read as documented in
// tools/cli/readable_values.h; malformed ones stay opaque; export keeps
// the stored bytes.
#include "formats/json_text.h"
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

using serde::Value;
using testing::DoPut;
using testing::DoWrites;

std::string BytesOfHex(std::string_view hex) {
  REQUIRE(hex.size() % 2 == 0);
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    bytes.push_back(static_cast<char>(
        std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return bytes;
}

TypedValue PythonPayload(std::string_view hex) {
  return {std::string(serde::kMsgpackType), BytesOfHex(hex)};
}

// [HumanMessage(content="hi", id="m1"), AIMessage(content="hello",
// id="m2")]: two pydantic v2 extensions (code 5).
constexpr std::string_view kMessagesHex =
    "92c7890594bd6c616e67636861696e5f636f72652e6d657373616765732e68756d616ea"
    "c48756d616e4d65737361676586a7636f6e74656e74a26869b16164646974696f6e616c"
    "5f6b776172677380b1726573706f6e73655f6d6574616461746180a474797065a568756"
    "d616ea46e616d65c0a26964a26d31b36d6f64656c5f76616c69646174655f6a736f6ec7"
    "b30594ba6c616e67636861696e5f636f72652e6d657373616765732e6169a941494d657"
    "37361676589a7636f6e74656e74a568656c6c6fb16164646974696f6e616c5f6b776172"
    "677380b1726573706f6e73655f6d6574616461746180a474797065a26169a46e616d65c"
    "0a26964a26d32aa746f6f6c5f63616c6c7390b2696e76616c69645f746f6f6c5f63616c"
    "6c7390ae75736167655f6d65746164617461c0b36d6f64656c5f76616c69646174655f6"
    "a736f6e";
// [Interrupt(value="approve?", id="i1")]: a dataclass (code 2).
constexpr std::string_view kInterruptHex =
    "91c7420293af6c616e6767726170682e7479706573a9496e7465727275707483a576616"
    "c7565a8617070726f76653fa26964a26931af726573706f6e73655f736368656d61c0";
// Color.RED of `class Color(Enum): RED = "red"` in __main__ (code 0).
constexpr std::string_view kEnumHex =
    "c7140093a85f5f6d61696e5f5fa5436f6c6f72a3726564";
// datetime(2024, 5, 6, 7, 8, 9, tzinfo=timezone.utc) (code 3).
constexpr std::string_view kDatetimeHex =
    "c73b0394a86461746574696d65a86461746574696d65b9323032342d30352d30365430"
    "373a30383a30392b30303a3030ad66726f6d69736f666f726d6174";
// UUID("12345678-1234-5678-1234-567812345678") (code 0).
constexpr std::string_view kUuidHex =
    "c72d0093a475756964a455554944d920313233343536373831323334353637383132333"
    "4353637383132333435363738";
// The same at 08:08:09.
constexpr std::string_view kLaterDatetimeHex =
    "c73b0394a86461746574696d65a86461746574696d65b9323032342d30352d30365430"
    "383a30383a30392b30303a3030ad66726f6d69736f666f726d6174";
// {3} (code 0, builtins.set).
constexpr std::string_view kSetHex = "d80093a86275696c74696e73a37365749103";
// Send("node", {"x": 1}) (code 1).
constexpr std::string_view kSendHex =
    "c7200193af6c616e6767726170682e7479706573a453656e6492a46e6f646581a17801";

// An extension whose data is `data`, as a whole payload.
TypedValue ExtPayload(int8_t code, std::string data) {
  return Msgpack(Value(serde::Ext{code, std::move(data)}));
}

// LangGraph.js's JsonPlusSerializer output (type "json").
TypedValue JsPayload(std::string_view json) {
  return {"json", std::string(json)};
}

constexpr std::string_view kJsMessages =
    R"([{"lc":1,"type":"constructor","id":["langchain_core","messages",)"
    R"("HumanMessage"],"kwargs":{"content":"hi js","additional_kwargs":{},)"
    R"("response_metadata":{},"id":"j1"}}])";

struct ReadableFixture {
  TempDir dir;
  std::string store = dir.Sub("store");
  std::map<std::string, TypedValue> values;

  ReadableFixture() {
    values = {
        {"messages", PythonPayload(kMessagesHex)},
        {"enum", PythonPayload(kEnumHex)},
        {"when", PythonPayload(kDatetimeHex)},
        {"uuid", PythonPayload(kUuidHex)},
        {"set", PythonPayload(kSetHex)},
        {"send", PythonPayload(kSendHex)},
        {"bad_not_msgpack", ExtPayload(5, "\xc1")},
        {"bad_short_tuple",
         ExtPayload(2, serde::EncodeMsgpack(Value(Value::Array{"m", "n"})))},
        {"bad_kwargs_not_map",
         ExtPayload(2, serde::EncodeMsgpack(
                           Value(Value::Array{"m", "n", Value::Array{1}})))},
        {"bad_uuid", ExtPayload(0, serde::EncodeMsgpack(Value(Value::Array{
                                       "uuid", "UUID", "not hex"})))},
        {"unknown_code", ExtPayload(42, "xyz")},
        {"js_messages", JsPayload(kJsMessages)},
        {"js_records",
         JsPayload(
             R"({"set":{"lc":2,"type":"constructor","id":["Set"],"method":null,)"
             R"("args":[[1,2]],"kwargs":{}},"gone":{"lc":2,"type":"undefined"},)"
             R"("error":{"lc":2,"type":"constructor","id":["Error"],)"
             R"("method":null,"args":["boom"],"kwargs":{}},)"
             R"("doc":{"lc":1,"type":"constructor","id":["langchain_core",)"
             R"("documents","Document"],"kwargs":{"page_content":"p"}},)"
             R"("bad":{"lc":1,"type":"constructor","id":"x","kwargs":{}}})")},
    };
    RocksDbOptions options;
    options.path = store;
    auto opened = RocksDbCheckpointer::Open(options);
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    Checkpointer& db = **opened;
    ChannelVersions versions;
    for (const auto& [channel, unused] : values) versions[channel] = 1;
    DoPut(db,
          {.thread = "py", .id = "c1", .values = values, .versions = versions});
    DoWrites(db, "py", "c1", {{"__interrupt__", PythonPayload(kInterruptHex)}},
             "task-1");
    // c2: one more message (the first again), a later datetime.
    Value messages =
        testing::Unwrap(serde::DecodeMsgpack(values["messages"].bytes));
    messages.as_array().push_back(messages.as_array()[0]);
    std::map<std::string, TypedValue> changed = {
        {"messages", Msgpack(messages)},
        {"when", PythonPayload(kLaterDatetimeHex)}};
    versions["messages"] = 2;
    versions["when"] = 2;
    DoPut(db, {.thread = "py",
               .id = "c2",
               .parent = "c1",
               .values = changed,
               .versions = versions,
               .new_versions = ChannelVersions{{"messages", 2}, {"when", 2}}});
  }

  Json Show(const std::string& checkpoint) const {
    return ParseJson(
        RunOk({"show", "py", checkpoint, "--json", "--store", store}).out);
  }
};

Json ChannelValue(const Json& show, const std::string& channel) {
  for (const Json& row : show["channels"]) {
    if (row["channel"] == channel) return row["value"]["value"];
  }
  FAIL((std::string("no channel ") + channel));
  return Json();
}

Json Opaque(int code, std::string_view data) {
  return Json{{"$ext", code}, {"$data", formats::Base64Encode(data)}};
}

TEST_CASE("show --json reads Python messages as {type, content, ...}") {
  ReadableFixture f;
  const Json messages = ChannelValue(f.Show("c1"), "messages");
  REQUIRE(messages.size() == 2);
  CHECK(messages[0] == Json::parse(R"({"type":"HumanMessage","content":"hi",
      "additional_kwargs":{},"id":"m1","name":null,"response_metadata":{}})"));
  CHECK(messages[1]["type"] == "AIMessage");
  CHECK(messages[1]["content"] == "hello");
  CHECK(messages[1]["tool_calls"] == Json::array());
  CHECK(messages[1].begin().key() == "type");
}

TEST_CASE("enums, datetimes, UUIDs, sets and other objects read as JSON") {
  ReadableFixture f;
  const Json show = f.Show("c1");
  CHECK(ChannelValue(show, "enum") == "red");
  CHECK(ChannelValue(show, "when") == "2024-05-06T07:08:09+00:00");
  CHECK(ChannelValue(show, "uuid") == "12345678-1234-5678-1234-567812345678");
  CHECK(ChannelValue(show, "set") == Json::array({3}));
  CHECK(ChannelValue(show, "send") ==
        Json::parse(R"({"module":"langgraph.types","name":"Send",
                        "args":["node",{"x":1}]})"));
}

TEST_CASE("malformed and unknown extensions stay opaque, never an error") {
  ReadableFixture f;
  const Json show = f.Show("c1");
  for (const std::string channel :
       {"bad_not_msgpack", "bad_short_tuple", "bad_kwargs_not_map", "bad_uuid",
        "unknown_code"}) {
    CAPTURE(channel);
    const Value stored =
        testing::Unwrap(serde::DecodeMsgpack(f.values[channel].bytes));
    CHECK(ChannelValue(show, channel) ==
          Opaque(stored.as_ext().type, stored.as_ext().data));
  }
  // The table shows them as before: {"$ext":N,"b64":...}.
  const std::string table =
      RunOk({"show", "py", "c1", "--full", "--store", f.store}).out;
  CHECK(table.find(R"({"$ext":42,"b64":"eHl6"})") != std::string::npos);
}

TEST_CASE("LangGraph.js lc JSON reads as {type, content, ...}") {
  ReadableFixture f;
  const Json show = f.Show("c1");
  CHECK(ChannelValue(show, "js_messages") ==
        Json::parse(R"([{"type":"HumanMessage","content":"hi js",
            "additional_kwargs":{},"response_metadata":{},"id":"j1"}])"));
  CHECK(ChannelValue(show, "js_records") == Json::parse(R"({
      "set":[1,2], "gone":null, "error":{"name":"Error","args":["boom"]},
      "doc":{"module":"langchain_core.documents","name":"Document",
             "kwargs":{"page_content":"p"}},
      "bad":{"lc":1,"type":"constructor","id":"x","kwargs":{}}})"));
}

TEST_CASE("table cells show the readable form") {
  ReadableFixture f;
  const std::string table =
      RunOk({"show", "py", "c1", "--full", "--store", f.store}).out;
  CHECK(table.find(R"([{"type":"HumanMessage","content":"hi",)") !=
        std::string::npos);
  CHECK(table.find(R"({"type":"AIMessage","content":"hello",)") !=
        std::string::npos);
  CHECK(table.find(R"("2024-05-06T07:08:09+00:00")") != std::string::npos);
  CHECK(table.find(R"([{"type":"HumanMessage","content":"hi js",)") !=
        std::string::npos);
}

TEST_CASE("writes shows a Python interrupt readably") {
  ReadableFixture f;
  const Json writes = ParseJson(
      RunOk({"writes", "py", "c1", "--json", "--store", f.store}).out);
  REQUIRE(writes.size() == 1);
  CHECK(writes[0]["value"]["value"] ==
        Json::parse(R"([{"module":"langgraph.types","name":"Interrupt",
            "kwargs":{"id":"i1","response_schema":null,"value":"approve?"}}])"));
  const std::string table =
      RunOk({"writes", "py", "c1", "--full", "--store", f.store}).out;
  CHECK(table.find(R"("name":"Interrupt")") != std::string::npos);
  CHECK(table.find(R"("value":"approve?")") != std::string::npos);
}

TEST_CASE("diff describes and shows readable values") {
  ReadableFixture f;
  const std::string table =
      RunOk({"diff", "py", "c1", "c2", "--full", "--store", f.store}).out;
  CHECK(table.find("appended 1 item") != std::string::npos);
  CHECK(table.find(
            R"("2024-05-06T07:08:09+00:00" -> "2024-05-06T08:08:09+00:00")") !=
        std::string::npos);
  const Json rows = ParseJson(
      RunOk({"diff", "py", "c1", "c2", "--json", "--store", f.store}).out);
  for (const Json& row : rows) {
    if (row["channel"] != "messages") continue;
    CHECK(row["value_b"]["value"].size() == 3);
    CHECK(row["value_b"]["value"][2]["type"] == "HumanMessage");
  }
}

// `levels` extensions, each holding the next: `code` 7 (a delta snapshot
// of the next) or 1 (a positional constructor whose one argument is the
// next), around the int 1.
TypedValue NestedExtensions(int8_t code, int levels) {
  Value value(1);
  for (int i = 0; i < levels; ++i) {
    const Value body =
        code == 1 ? Value(Value::Array{"m", "C", Value::Array{value}}) : value;
    value = Value(serde::Ext{code, serde::EncodeMsgpack(body)});
  }
  return Msgpack(value);
}

TEST_CASE("extensions nested past kMaxDepth stay opaque below it") {
  TempDir dir;
  const std::string store = dir.Sub("store");
  {
    RocksDbOptions options;
    options.path = store;
    auto opened = RocksDbCheckpointer::Open(options);
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    DoPut(**opened, {.thread = "deep",
                     .id = "c1",
                     .values = {{"snapshots", NestedExtensions(7, 5000)},
                                {"calls", NestedExtensions(1, 2000)}},
                     .versions = {{"snapshots", 1}, {"calls", 1}}});
  }
  const Json show =
      ParseJson(RunOk({"show", "deep", "--json", "--store", store}).out);
  // 256 snapshot levels decode; the 257th is shown as stored.
  CHECK(ChannelValue(show, "snapshots")["$ext"] == 7);
  Json calls = ChannelValue(show, "calls");
  int decoded = 0;
  while (calls.contains("args")) {
    calls = Json(calls["args"][0]);
    ++decoded;
  }
  CHECK(decoded > 1);
  CHECK(calls["$ext"] == 1);
  RunOk({"show", "deep", "--full", "--store", store});
}

TEST_CASE("--raw and export keep the stored bytes") {
  ReadableFixture f;
  const Json raw = ParseJson(
      RunOk({"show", "py", "c1", "--json", "--raw", "--store", f.store}).out);
  for (const Json& row : raw["channels"]) {
    if (row["channel"] != "messages") continue;
    CHECK(row["value"]["b64"] ==
          formats::Base64Encode(BytesOfHex(kMessagesHex)));
  }
  const std::string exported = RunOk({"export", "--store", f.store}).out;
  CHECK(exported.find("HumanMessage\"") == std::string::npos);
  CHECK(exported.find(formats::Base64Encode(BytesOfHex(kMessagesHex))) !=
        std::string::npos);
  CHECK(exported.find(formats::Base64Encode(BytesOfHex(kInterruptHex))) !=
        std::string::npos);
}

}  // namespace
}  // namespace rockpoint::cli_test
