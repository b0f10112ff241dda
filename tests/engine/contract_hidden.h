// Contract suite, hidden checkpoints: list(include_hidden) shows what prune
// and delete_for_runs kept out of sight, and hide_checkpoint makes a
// checkpoint hidden exactly as they do. Compiled by contract_cases.cpp.
#pragma once

#include "engine/contract_delta_safety.h"
#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"

namespace rockpoint::testing {

inline ListOptions WithHidden(ListOptions options) {
  options.include_hidden = true;
  return options;
}

// "cp0003 cp0002*": ids in order, hidden ones starred.
inline std::string IdsMarked(const std::vector<CheckpointTuple>& tuples) {
  std::string out;
  for (const CheckpointTuple& tuple : tuples) {
    if (!out.empty()) out += " ";
    out += tuple.config.checkpoint_id.value_or("<none>");
    if (tuple.hidden) out += "*";
  }
  return out;
}

// The visible counts of list_threads for `thread`: "ns=count ...".
inline std::string Counts(Checkpointer& store, const std::string& thread) {
  ThreadPage page = Unwrap(store.ListThreads(ListThreadsOptions{}));
  std::string out;
  for (const ThreadInfo& info : page.threads) {
    if (info.thread_id != thread) continue;
    for (const NamespaceInfo& ns : info.namespaces) {
      if (!out.empty()) out += " ";
      out +=
          "'" + ns.checkpoint_ns + "'=" + std::to_string(ns.checkpoint_count);
    }
  }
  return out;
}

// Two turns of a one-node LangGraph graph on `thread`, six checkpoints: per
// turn the input (a "__start__" value), the step that ran "__start__"
// ("messages" and "branch:to:node" stored, "__start__" bumped "empty") and
// the step that ran "node" ("branch:to:node" bumped "empty"). Tasks write
// "messages" (and "__start__"'s task "branch:to:node"), never "__start__".
// With `delta`, "messages" is a delta channel whose only stored value is
// the snapshot at cp0004; otherwise it is stored at every step it changes.
// Metadata run_id "<thread>/run-<turn>".
inline void PutGraphTurns(Checkpointer& store, const std::string& thread,
                          bool delta) {
  struct Step {
    ChannelVersions versions, new_versions;
    std::map<std::string, TypedValue> values;
    std::vector<ChannelWrite> writes;
    std::string task;
  };
  const auto v = [](int64_t n) { return ChannelVersion{n}; };
  const auto msgs = [&](int id, const std::string& text) {
    std::map<std::string, TypedValue> out;
    if (!delta || id == 4) out.emplace("messages", Val(text));
    return out;
  };
  std::vector<Step> steps;
  for (int turn = 0; turn < 2; ++turn) {
    const int64_t base = 3 * turn;
    const std::string in = "in" + std::to_string(turn);
    const ChannelVersion inherited = turn == 0 ? ChannelVersion{} : v(base);
    Step input{.versions = {{"__start__", v(base + 1)}},
               .new_versions = {{"__start__", v(base + 1)}},
               .values = {{"__start__", Val(in)}},
               .writes = {W("messages", in), W("branch:to:node", "")},
               .task = "start"};
    if (turn > 0) {
      input.versions.emplace("messages", inherited);
      input.versions.emplace("branch:to:node", inherited);
    }
    Step started{.versions = {{"__start__", v(base + 2)},
                              {"messages", v(base + 2)},
                              {"branch:to:node", v(base + 2)}},
                 .new_versions = {{"__start__", v(base + 2)},
                                  {"messages", v(base + 2)},
                                  {"branch:to:node", v(base + 2)}},
                 .values = msgs(static_cast<int>(base) + 1, "upto " + in),
                 .writes = {W("messages", "out" + std::to_string(turn))},
                 .task = "node"};
    started.values.emplace("branch:to:node", Val(""));
    Step ran{.versions = {{"__start__", v(base + 2)},
                          {"messages", v(base + 3)},
                          {"branch:to:node", v(base + 3)}},
             .new_versions = {{"messages", v(base + 3)},
                              {"branch:to:node", v(base + 3)}},
             .values = msgs(static_cast<int>(base) + 2, "upto out")};
    for (Step* step : {&input, &started, &ran}) steps.push_back(*step);
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    const int id = static_cast<int>(i);
    DoPut(store,
          {.thread = thread,
           .id = CpId(id),
           .parent = id == 0 ? std::nullopt
                             : std::optional<std::string>(CpId(id - 1)),
           .values = steps[i].values,
           .versions = steps[i].versions,
           .new_versions = steps[i].new_versions,
           .metadata = Meta({{"run_id", Value(thread + "/run-" +
                                              std::to_string(id / 3))}})});
    if (!steps[i].writes.empty()) {
      DoWrites(store, thread, CpId(id), steps[i].writes, steps[i].task);
    }
  }
}

}  // namespace rockpoint::testing

RP_CONTRACT_CASE("contract hidden checkpoints") {
  RP_CONTRACT_USING;
  PutDeltaThread(h.store(), "d");
  PutDeltaThread(h.store(), "d", "n:1", 7, 3);
  h.Reopen();
  const std::vector<CheckpointTuple> before =
      Collect(h.store(), ListOf(Cfg("d", std::nullopt, std::nullopt)));
  REQUIRE(before.size() == 19);
  for (const CheckpointTuple& tuple : before) CHECK_FALSE(tuple.hidden);

  SUBCASE("list include_hidden shows what prune kept, reading as before") {
    RP_REQUIRE_OK(h.store().Prune({"d"}, PruneStrategy::kKeepLatest, 1));
    h.Reopen();
    const std::vector<CheckpointTuple> all =
        Collect(h.store(), WithHidden(ListOf(Cfg("d", std::nullopt, ""))));
    // cp0011 reads its delta channel from the snapshot at cp0008.
    CHECK(IdsMarked(all) == "cp0011 cp0010* cp0009* cp0008*");
    for (const CheckpointTuple& tuple : all) {
      CAPTURE(*tuple.config.checkpoint_id);
      CheckpointTuple old;
      for (const CheckpointTuple& b : before) {
        if (b.config == tuple.config) old = b;
      }
      old.hidden = tuple.hidden;
      CHECK(tuple == old);
    }
    // Every namespace, merged newest first; the visible list is unchanged.
    CHECK(IdsMarked(Collect(
              h.store(),
              WithHidden(ListOf(Cfg("d", std::nullopt, std::nullopt))))) ==
          "cp0011 cp0010* cp0009* cp0008* cp0006");
    CHECK(IdsMarked(Collect(h.store(), ListOf(Cfg("d", std::nullopt, "")))) ==
          "cp0011");
    // by id, before and limit apply as to visible checkpoints.
    CHECK(IdsMarked(Collect(
              h.store(), WithHidden(ListOf(Cfg("d", CpId(9)))))) == "cp0009*");
    CHECK(IdsMarked(Collect(
              h.store(), WithHidden(ListOf(Cfg("d", std::nullopt, ""),
                                           Value::MakeMap(), CpId(11), 2)))) ==
          "cp0010* cp0009*");
    // get_tuple still does not see them.
    CHECK_FALSE(Get(h.store(), Cfg("d", CpId(9))).has_value());
  }

  SUBCASE("include_hidden needs a thread") {
    for (const std::optional<CheckpointConfig>& config :
         {std::optional<CheckpointConfig>(),
          std::optional<CheckpointConfig>(
              CheckpointConfig{std::nullopt, std::string(), std::nullopt})}) {
      Result<std::unique_ptr<TupleCursor>> cursor =
          h.store().List(WithHidden(ListOf(config)));
      REQUIRE_FALSE(cursor.ok());
      CHECK(cursor.status().IsInvalidArgument());
      CHECK(cursor.status().message().find("include_hidden") !=
            std::string::npos);
    }
  }

  SUBCASE("hide_checkpoint hides like prune does") {
    // A child of cp0011 whose delta history runs through it.
    PutDeltaStep(h.store(), "d", CpId(20), CpId(11), int64_t{50}, {}, {"x"});
    const std::string history = HistoryOf(h.store(), Cfg("d", CpId(20)));
    RP_REQUIRE_OK(h.store().HideCheckpoint(Cfg("d", CpId(11))));
    RP_REQUIRE_OK(h.store().HideCheckpoint(Cfg("d", CpId(11))));  // no-op.
    h.Reopen();
    CHECK_FALSE(Get(h.store(), Cfg("d", CpId(11))).has_value());
    CHECK(MustGet(h.store(), Cfg("d")).config.checkpoint_id == CpId(20));
    CHECK(HistoryOf(h.store(), Cfg("d", CpId(20))) == history);
    CHECK(Counts(h.store(), "d") == "''=12 'n:1'=7");
    CHECK(Ids(Collect(h.store(), ListOf(std::nullopt,
                                        Meta({{"step", Value(11)}})))) == "");
    CHECK(IdsMarked(Collect(
              h.store(), WithHidden(ListOf(Cfg("d", std::nullopt, ""), Meta(),
                                           std::nullopt, 2)))) ==
          "cp0020 cp0011*");
    // delete_for_runs no longer sees it: its run deletes cp0009 and cp0010,
    // cp0011 stays (hidden) for cp0020, and cp0020 still reads the same.
    RP_REQUIRE_OK(h.store().DeleteForRuns({"d/run-3"}));
    h.Reopen();
    CHECK(HistoryOf(h.store(), Cfg("d", CpId(20))) == history);
    CHECK(IdsMarked(Collect(
              h.store(), WithHidden(ListOf(Cfg("d", std::nullopt, ""), Meta(),
                                           std::nullopt, 5)))) ==
          "cp0020 cp0011* cp0010* cp0009* cp0008");
    // Once nothing needs it, the next prune deletes it.
    RP_REQUIRE_OK(h.store().HideCheckpoint(Cfg("d", CpId(20))));
    RP_REQUIRE_OK(h.store().Prune({"d"}, PruneStrategy::kKeepLatest, 1));
    h.Reopen();
    CHECK(IdsMarked(Collect(
              h.store(),
              WithHidden(ListOf(Cfg("d", std::nullopt, std::nullopt))))) ==
          "cp0008 cp0006");
  }

  SUBCASE("hide_checkpoint: bad input is an error and changes nothing") {
    const auto check = [&](const CheckpointConfig& config, bool invalid) {
      Status status = h.store().HideCheckpoint(config);
      CAPTURE(status.ToString());
      CHECK((invalid ? status.IsInvalidArgument() : status.IsNotFound()));
    };
    check(CheckpointConfig{std::nullopt, std::string(), CpId(1)}, true);
    check(Cfg("d"), true);
    check(Cfg("d", "no-such-id"), false);
    check(Cfg("no-such-thread", CpId(1)), false);
    check(Cfg("d", CpId(1), "no-such-ns"), false);
    check(Cfg(std::string("d\0", 2), CpId(1)), false);
    h.Reopen();
    CHECK(Collect(h.store(), WithHidden(ListOf(Cfg("d", std::nullopt,
                                                   std::nullopt)))) == before);
  }
}

RP_CONTRACT_CASE("contract retention keeps only what delta history needs") {
  RP_CONTRACT_USING;
  const std::vector<std::string> channels = {"__start__", "branch:to:node",
                                             "messages"};
  const auto prune_keep_one = [&](const std::string& thread) {
    RP_REQUIRE_OK(h.store().Prune({thread}, PruneStrategy::kKeepLatest, 1));
    h.Reopen();
    return IdsMarked(
        Collect(h.store(), WithHidden(ListOf(Cfg(thread, std::nullopt, "")))));
  };

  SUBCASE("versions with no stored value and no write keep no ancestor") {
    PutGraphTurns(h.store(), "g", /*delta=*/false);
    const CheckpointTuple latest = MustGet(h.store(), Cfg("g", CpId(5)));
    CHECK(latest.checkpoint.channel_values.size() == 1);  // only messages.
    CHECK(prune_keep_one("g") == "cp0005");
    CHECK(MustGet(h.store(), Cfg("g", CpId(5))) == latest);
  }

  SUBCASE("a delta channel keeps its ancestors back to its seed, no further") {
    PutGraphTurns(h.store(), "d", /*delta=*/true);
    const CheckpointTuple latest = MustGet(h.store(), Cfg("d", CpId(5)));
    const std::string history =
        HistoryOf(h.store(), Cfg("d", CpId(5)), "messages");
    CHECK(history == "upto in1: cp0004/node#0=out1");
    CHECK(prune_keep_one("d") == "cp0005 cp0004*");
    CHECK(MustGet(h.store(), Cfg("d", CpId(5))) == latest);
    CHECK(HistoryOf(h.store(), Cfg("d", CpId(5)), "messages") == history);
  }

  SUBCASE("delete_for_runs keeps the same") {
    PutGraphTurns(h.store(), "g", /*delta=*/false);
    PutGraphTurns(h.store(), "d", /*delta=*/true);
    RP_REQUIRE_OK(h.store().DeleteForRuns({"g/run-0", "d/run-0"}));
    h.Reopen();
    const auto all = [&](const std::string& thread) {
      return IdsMarked(Collect(
          h.store(), WithHidden(ListOf(Cfg(thread, std::nullopt, "")))));
    };
    CHECK(all("g") == "cp0005 cp0004 cp0003");
    // No snapshot before cp0004: cp0003's messages read every write since
    // the root.
    CHECK(all("d") == "cp0005 cp0004 cp0003 cp0002* cp0001* cp0000*");
  }
}
