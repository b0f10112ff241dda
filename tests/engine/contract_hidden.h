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
