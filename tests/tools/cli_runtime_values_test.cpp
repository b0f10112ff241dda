// show and diff on a store the runtime wrote: a delta message channel
// (snapshots as Ext 0x44, deltas rebuilt from the delta history) and a
// delta counter whose reducer the CLI does not know.
#if defined(ROCKPOINT_HAVE_RUNTIME)
#include <set>

#include "rockpoint/runtime/runtime.h"
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

namespace rt = rockpoint::runtime;
using serde::Value;

// A chat: "reply" answers each user message; "messages" is a delta channel
// (AppendReducer, a snapshot every 3 updates), "total" a delta channel
// with AddReducer.
rt::StateGraph ChatGraph() {
  rt::StateGraph graph;
  graph.AddChannel("messages", rt::ChannelSpec::Delta(rt::AppendReducer(), 3))
      .AddChannel("total", rt::ChannelSpec::Delta(rt::AddReducer(), 3))
      .AddNode("reply",
               [](const rt::State& state, rt::NodeContext&) {
                 const auto& messages = state.at("messages").as_array();
                 return rt::NodeUpdate()
                     .Write("messages",
                            Value("re: " + messages.back().as_string()))
                     .Write("total", 1);
               })
      .AddEdge(rt::kStart, "reply")
      .AddEdge("reply", rt::kEnd);
  return graph;
}

// The runtime's own reading of each checkpoint, newest first.
struct Written {
  std::vector<std::string> ids;
  std::vector<Json> messages;  // as a JSON array of strings.
};

Written WriteChat(const std::string& path) {
  RocksDbOptions options;
  options.path = path;
  options.sync_writes = false;
  auto store = RocksDbCheckpointer::Open(options);
  REQUIRE_MESSAGE(store.ok(), store.status().ToString());
  rt::StateGraph graph = ChatGraph();
  auto compiled = graph.Compile({.checkpointer = store->get()});
  REQUIRE_MESSAGE(compiled.ok(), compiled.status().ToString());
  rt::RunConfig config;
  config.thread_id = "chat";
  for (int turn = 1; turn <= 5; ++turn) {
    const std::string text = "user " + std::to_string(turn);
    auto run = (*compiled)->Invoke(
        {{"messages", Value(Value::Array{Value(text)})}}, config);
    REQUIRE_MESSAGE(run.ok(), run.status().ToString());
  }
  auto history = (*compiled)->GetStateHistory(config);
  REQUIRE_MESSAGE(history.ok(), history.status().ToString());
  Written written;
  for (const rt::StateSnapshot& snapshot : *history) {
    written.ids.push_back(*snapshot.config.checkpoint_id);
    Json messages = Json::array();
    auto found = snapshot.values.find("messages");
    if (found != snapshot.values.end()) {
      for (const Value& item : found->second.as_array()) {
        messages.push_back(item.as_string());
      }
    }
    written.messages.push_back(std::move(messages));
  }
  return written;
}

Json ChannelRow(const Json& show, const std::string& channel) {
  for (const Json& row : show["channels"]) {
    if (row["channel"] == channel) return row;
  }
  return Json();
}

struct ChatFixture {
  TempDir dir;
  std::string store = dir.Sub("chat");
  Written written = WriteChat(store);
  Json Show(const std::string& id) const {
    return ParseJson(
        RunOk({"show", "chat", id, "--json", "--store", store}).out);
  }
};

TEST_CASE("show decodes snapshots and rebuilds delta values like the runtime") {
  ChatFixture f;
  REQUIRE(f.written.ids.size() == 15);  // 5 turns x (input, start, reply)
  std::set<std::string> sources;
  for (size_t i = 0; i < f.written.ids.size(); ++i) {
    CAPTURE(f.written.ids[i]);
    const Json show = f.Show(f.written.ids[i]);
    const Json row = ChannelRow(show, "messages");
    if (f.written.messages[i].empty()) continue;  // before the first input
    CHECK(row["value"]["type"] == "msgpack");
    CHECK(row["value"]["value"] == f.written.messages[i]);
    sources.insert(row["stored"].get<std::string>().substr(0, 8));
  }
  // Both forms occur: stored snapshots and rebuilt deltas.
  CHECK(sources.contains("delta sn"));
  CHECK(sources.contains("rebuilt:"));

  RunResult table = RunOk({"show", "chat", "--full", "--store", f.store});
  CHECK(table.out.find("$ext") == std::string::npos);
  CHECK(table.out.find("\"re: user 5\"]") != std::string::npos);
  // --raw shows what is stored, undecoded and not rebuilt.
  Json raw = ParseJson(
      RunOk({"show", "chat", "--raw", "--json", "--store", f.store}).out);
  const Json raw_row = ChannelRow(raw, "messages");
  CHECK((raw_row["value"].is_null() || raw_row["value"].contains("b64")));
}

TEST_CASE("a delta channel of an unknown reducer is shown honestly") {
  ChatFixture f;
  bool seen = false;
  for (const std::string& id : f.written.ids) {
    const Json row = ChannelRow(f.Show(id), "total");
    if (row.is_null()) continue;  // before the first reply
    const std::string stored = row["stored"].is_string() ? row["stored"] : "";
    if (!stored.starts_with("not rebuilt: unknown reducer")) continue;
    seen = true;
    CHECK(row["value"].is_null());
  }
  CHECK(seen);
}

TEST_CASE("diff describes delta channels across snapshots and writes") {
  ChatFixture f;
  const std::vector<std::string>& ids = f.written.ids;  // newest first
  const auto diff = [&](const std::string& a, const std::string& b) {
    Json rows = ParseJson(
        RunOk({"diff", "chat", a, b, "--json", "--store", f.store}).out);
    Json by_channel = Json::object();
    for (const Json& row : rows) {
      by_channel[row["channel"].get<std::string>()] = row;
    }
    return by_channel;
  };
  // Every pair of consecutive checkpoints, and the first against the last.
  for (size_t i = 0; i + 1 < ids.size(); ++i) {
    const Json& older = f.written.messages[i + 1];
    const Json& newer = f.written.messages[i];
    if (older.empty() || older == newer) continue;
    CAPTURE(ids[i]);
    const Json rows = diff(ids[i + 1], ids[i]);
    CHECK(rows["messages"]["detail"] ==
          "appended " + std::to_string(newer.size() - older.size()) +
              (newer.size() - older.size() == 1 ? " item" : " items"));
    CHECK(rows["messages"]["value_b"]["value"] == newer);
  }
  const Json whole = diff(ids[ids.size() - 2], ids[0]);
  CHECK(whole["messages"]["detail"] == "appended 9 items");
  CHECK(whole["total"]["change"] == "added");
  // The counter's reducer is unknown: its writes between A and B are
  // counted instead (one per turn, stored on the checkpoint the reply ran
  // from).
  for (size_t a = 1; a < ids.size(); ++a) {
    const Json rows = diff(ids[a], ids[0]);
    if (!rows.contains("total") || rows["total"]["change"] != "changed") {
      continue;
    }
    const std::string detail = rows["total"]["detail"];
    CAPTURE(detail);
    const size_t turns_between = (a + 2) / 3;  // writes on ids[1 + 3k]
    CHECK((detail == std::to_string(turns_between) +
                         (turns_between == 1 ? " write" : " writes") +
                         " since A (unknown reducer)" ||
           detail.find(" -> ") != std::string::npos));
  }
}

}  // namespace
}  // namespace rockpoint::cli_test
#endif  // ROCKPOINT_HAVE_RUNTIME
