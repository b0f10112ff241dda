// The fixture store of cli_harness.h.
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

using serde::Value;

struct PutArgs {
  std::string thread, ns, id;
  std::optional<std::string> parent;
  std::map<std::string, TypedValue> values;
  ChannelVersions versions;
  ChannelVersions new_versions;
  Value::Map metadata;
};

void Put(Checkpointer& store, PutArgs args, Checkpoint extra = {}) {
  Checkpoint checkpoint = std::move(extra);
  checkpoint.id = args.id;
  checkpoint.ts =
      "2026-01-01T00:00:" + args.id.substr(args.id.size() - 2) + "Z";
  checkpoint.channel_values = std::move(args.values);
  checkpoint.channel_versions = std::move(args.versions);
  auto stored =
      store.Put(CheckpointConfig{args.thread, args.ns, args.parent}, checkpoint,
                Value(std::move(args.metadata)), args.new_versions);
  REQUIRE_MESSAGE(stored.ok(), stored.status().ToString());
}

void Writes(Checkpointer& store, const std::string& thread,
            const std::string& ns, const std::string& id,
            std::vector<ChannelWrite> writes, const std::string& task,
            const std::string& path = "") {
  Status status =
      store.PutWrites(CheckpointConfig{thread, ns, id}, writes, task, path);
  REQUIRE_MESSAGE(status.ok(), status.ToString());
}

Value Messages(int count) {
  Value::Array messages;
  for (int i = 1; i <= count; ++i) {
    messages.push_back(Value("message " + std::to_string(i)));
  }
  return Value(std::move(messages));
}

Value::Map Meta(const char* source, int64_t step, const char* run) {
  return Value::Map{{"source", Value(source)},
                    {"step", Value(step)},
                    {"run_id", Value(run)},
                    {"parents", Value::MakeMap()}};
}

void FillThreadOne(Checkpointer& store) {
  const std::string t = "t1";
  Put(store,
      {t,
       "",
       "cp-01",
       std::nullopt,
       {{"messages", Msgpack(Messages(1))}, {"count", Msgpack(Value(1))}},
       {{"messages", int64_t{1}}, {"count", int64_t{1}}},
       {{"messages", int64_t{1}}, {"count", int64_t{1}}},
       Meta("input", -1, "run-a")});
  Put(store, {t,
              "",
              "cp-02",
              "cp-01",
              {{"messages", Msgpack(Messages(2))}},
              {{"messages", int64_t{2}}, {"count", int64_t{1}}},
              {{"messages", int64_t{2}}},
              Meta("loop", 0, "run-a")});
  // "delta" is a delta channel: the writes of cp-02 and cp-03 make its
  // versions 1 and 2, which store no value.
  Writes(store, t, "", "cp-02", {{"delta", Msgpack(Value("d1"))}}, "task-d");
  Put(store,
      {t,
       "",
       "cp-03",
       "cp-02",
       {{"messages", Msgpack(Messages(3))}, {"count", Msgpack(Value(2))}},
       {{"messages", int64_t{3}}, {"count", int64_t{2}}, {"delta", int64_t{1}}},
       {{"messages", int64_t{3}}, {"count", int64_t{2}}, {"delta", int64_t{1}}},
       Meta("loop", 1, "run-b")});
  Writes(store, t, "", "cp-03",
         {{"x", Msgpack(Value("x-value"))}, {"delta", Msgpack(Value("d2"))}},
         "task-0");
  Put(store,
      {t,
       "",
       "cp-04",
       "cp-03",
       {{"messages", Msgpack(Messages(4))}},
       {{"messages", int64_t{4}}, {"count", int64_t{2}}, {"delta", int64_t{2}}},
       {{"messages", int64_t{4}}, {"delta", int64_t{2}}},
       Meta("loop", 2, "run-b")});
  Put(store,
      {t,
       "",
       "cp-05",
       "cp-04",
       {{"messages", Msgpack(Messages(5))}},
       {{"messages", int64_t{5}}, {"count", int64_t{2}}, {"delta", int64_t{2}}},
       {{"messages", int64_t{5}}},
       Meta("update", 3, "run-b")});
  // __error__ takes list position 0, so "out" is stored at idx 1.
  Writes(store, t, "", "cp-05",
         {{"__error__", Msgpack(Value("boom"))}, {"out", Msgpack(Value(7))}},
         "task-1", "~node");
  Writes(store, t, "", "cp-05",
         {{"a", Msgpack(Value("first"))}, {"b", Msgpack(Value("second"))}},
         "task-2");
  // A subgraph namespace.
  Put(store, {t,
              "child:t",
              "cp-02a",
              std::nullopt,
              {{"inner", Msgpack(Value("one"))}},
              {{"inner", int64_t{1}}},
              {{"inner", int64_t{1}}},
              Meta("input", -1, "run-c")});
  Put(store, {t,
              "child:t",
              "cp-03a",
              "cp-02a",
              {{"inner", Msgpack(Value("two"))}},
              {{"inner", int64_t{2}}},
              {{"inner", int64_t{2}}},
              Meta("loop", 0, "run-c")});
}

void FillThreadTwo(Checkpointer& store) {
  const std::string t = "t2";
  const std::string v1 = "00000000000000000000000000000001.0123456789012345";
  const std::string v2 = "00000000000000000000000000000002.5432109876543210";
  Value::Map metadata = Meta("loop", 1, "run-t2");
  metadata["blob"] = Value(serde::Bytes{std::string("\x00\xff", 2)});
  metadata["ratio"] = Value(0.5);
  metadata["whole"] = Value(2.0);
  metadata["nested"] = Value(Value::Map{{"$odd", Value(1)}});
  metadata["bad_text"] = Value(std::string("\xc3\x28"));
  Checkpoint extra;
  extra.versions_seen["node"] = {{"js", v1}};
  extra.updated_channels = std::vector<std::string>{"js", "opaque"};
  Put(store,
      {t,
       "",
       "t2-01",
       std::nullopt,
       {{"js", TypedValue{"json", R"({"a":1})"}},
        {"opaque", TypedValue{"bytes", std::string("\x00\x01\xff", 3)}}},
       {{"js", v1}, {"opaque", v1}},
       {{"js", v1}, {"opaque", v1}},
       metadata},
      extra);
  Checkpoint with_sends;
  with_sends.pending_sends = std::vector<TypedValue>{Msgpack(Value("send"))};
  Put(store,
      {t,
       "",
       "t2-02",
       "t2-01",
       {{"js", TypedValue{"json", R"({"a":2})"}}},
       {{"js", v2}, {"opaque", v1}},
       {{"js", v2}},
       Meta("loop", 2, "run-t2")},
      with_sends);
  // A version "1" (string) next to the int 1 of t1: kept distinct.
  Put(store, {t,
              "",
              "t2-03",
              "t2-02",
              {{"n", Msgpack(Value(3))}},
              {{"js", v2}, {"opaque", v1}, {"n", std::string("1")}},
              {{"n", std::string("1")}},
              Meta("loop", 3, "run-t2")});
}

}  // namespace

void FillFixture(Checkpointer& store) {
  FillThreadOne(store);
  FillThreadTwo(store);
  Put(store, {kOddThread,
              "\x01",
              "odd-01",
              std::nullopt,
              {{kOddChannel, Msgpack(Value(std::string("\xfe", 1)))}},
              {{kOddChannel, int64_t{1}}},
              {{kOddChannel, int64_t{1}}},
              Meta("input", -1, "run-odd")});
  Writes(store, kOddThread, "\x01", "odd-01",
         {{kOddChannel, Msgpack(Value(1))}}, std::string("\x00task", 5));
}

void MakeFixtureStore(const std::string& path) {
  RocksDbOptions options;
  options.path = path;
  options.sync_writes = false;
  auto store = RocksDbCheckpointer::Open(options);
  REQUIRE_MESSAGE(store.ok(), store.status().ToString());
  FillFixture(**store);
}

}  // namespace rockpoint::cli_test
