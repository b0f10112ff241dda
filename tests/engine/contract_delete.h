// Contract suite, removal and copying: delete_thread, delete_for_runs,
// copy_thread and prune on plain (non-delta) histories. The delta-safety
// side of the same calls is in contract_delta_safety.h. Included by
// contract_suite.h.
#pragma once

#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"

namespace rockpoint::testing {

// Thread `thread`: "" has cp1 <- cp2 <- cp3 (runs r1, r2, r1), "n:1" has
// cp4 <- cp5 (runs r2, r3); every checkpoint has one value and one write.
inline void PutRunFixture(Checkpointer& store, const std::string& thread) {
  const char* runs[] = {"", "r1", "r2", "r1", "r2", "r3"};
  for (int i = 1; i <= 5; ++i) {
    std::string ns = i <= 3 ? "" : "n:1";
    std::optional<std::string> parent;
    if (i != 1 && i != 4) parent = CpId(i - 1);
    DoPut(store,
          {.thread = thread,
           .id = CpId(i),
           .parent = parent,
           .values = {{"a", Val(thread + std::to_string(i))}},
           .versions = {{"a", int64_t{i}}},
           .metadata = Meta({{"run_id", Value(runs[i])}, {"step", Value(i)}}),
           .ns = ns});
    DoWrites(store, thread, CpId(i), {W("w", "w" + std::to_string(i))}, "k", "",
             ns);
  }
}

// Every visible tuple of `thread`, newest first.
inline std::vector<CheckpointTuple> ThreadTuples(Checkpointer& store,
                                                 const std::string& thread) {
  return Collect(store, ListOf(Cfg(thread, std::nullopt, std::nullopt)));
}

}  // namespace rockpoint::testing

RP_CONTRACT_CASE("contract delete_thread") {
  RP_CONTRACT_USING;
  PutRunFixture(h.store(), "a");
  PutRunFixture(h.store(), "b");
  std::vector<CheckpointTuple> b_before = ThreadTuples(h.store(), "b");

  SUBCASE("removes every namespace of the thread; others untouched") {
    RP_REQUIRE_OK(h.store().DeleteThread("a"));
    h.Reopen();
    CHECK(ThreadTuples(h.store(), "a").empty());
    CHECK_FALSE(Get(h.store(), Cfg("a")).has_value());
    CHECK_FALSE(Get(h.store(), Cfg("a", std::nullopt, "n:1")).has_value());
    CHECK(ThreadTuples(h.store(), "b") == b_before);
    // The thread starts over cleanly: old values and writes are gone.
    DoPut(h.store(), {.thread = "a",
                      .id = CpId(1),
                      .versions = {{"a", int64_t{1}}},
                      .new_versions = ChannelVersions{}});
    h.Reopen();
    CheckpointTuple fresh = MustGet(h.store(), Cfg("a", CpId(1)));
    CHECK(ValuesOf(fresh.checkpoint) == "");
    CHECK(fresh.pending_writes.empty());
  }
  SUBCASE("an unknown thread is a no-op") {
    RP_REQUIRE_OK(h.store().DeleteThread("zzz"));
    RP_REQUIRE_OK(h.store().DeleteThread(""));
    h.Reopen();
    CHECK(ThreadTuples(h.store(), "a").size() == 5);
    CHECK(ThreadTuples(h.store(), "b") == b_before);
  }
}

RP_CONTRACT_CASE("contract delete_for_runs") {
  RP_CONTRACT_USING;
  PutRunFixture(h.store(), "a");
  PutRunFixture(h.store(), "b");
  std::vector<CheckpointTuple> before =
      Collect(h.store(), ListOf(std::nullopt));

  SUBCASE("deletes the runs' checkpoints in every thread and namespace") {
    RP_REQUIRE_OK(h.store().DeleteForRuns({"r1", "r3"}));
    h.Reopen();
    CHECK(Keys(ThreadTuples(h.store(), "a")) == "a:n:1/cp0004 a/cp0002");
    CHECK(Keys(ThreadTuples(h.store(), "b")) == "b:n:1/cp0004 b/cp0002");
    for (int id : {1, 3}) {
      CHECK_FALSE(Get(h.store(), Cfg("a", CpId(id))).has_value());
      CHECK_FALSE(Get(h.store(), Cfg("b", CpId(id))).has_value());
    }
    CHECK_FALSE(Get(h.store(), Cfg("a", CpId(5), "n:1")).has_value());
    // Latest falls back to the greatest surviving id.
    CHECK(MustGet(h.store(), Cfg("a")).config.checkpoint_id == CpId(2));
    CHECK(Collect(h.store(),
                  ListOf(std::nullopt, Meta({{"run_id", Value("r1")}})))
              .empty());
  }
  SUBCASE("children of a deleted checkpoint survive with parent_config") {
    RP_REQUIRE_OK(h.store().DeleteForRuns({"r1"}));
    h.Reopen();
    CheckpointTuple child = MustGet(h.store(), Cfg("a", CpId(2)));
    REQUIRE(child.parent_config.has_value());
    CHECK(*child.parent_config == CheckpointConfig{"a", "", CpId(1)});
    CHECK(ValuesOf(child.checkpoint) == "a=a2");
    CHECK(WritesOf(child.pending_writes) == "/k#0:w=w2");
  }
  SUBCASE("the deleted checkpoints' writes are gone") {
    RP_REQUIRE_OK(h.store().DeleteForRuns({"r2"}));
    // Re-putting a deleted id shows no old writes.
    DoPut(h.store(), {.thread = "a", .id = CpId(2), .parent = CpId(1)});
    h.Reopen();
    CHECK(MustGet(h.store(), Cfg("a", CpId(2))).pending_writes.empty());
  }
  SUBCASE("[] and unknown run ids are no-ops") {
    RP_REQUIRE_OK(h.store().DeleteForRuns({}));
    RP_REQUIRE_OK(h.store().DeleteForRuns({"nope", ""}));
    h.Reopen();
    CHECK(Collect(h.store(), ListOf(std::nullopt)) == before);
  }
}

RP_CONTRACT_CASE("contract copy_thread") {
  RP_CONTRACT_USING;
  PutRunFixture(h.store(), "src");
  DoWrites(h.store(), "src", CpId(3), {W("__error__", "boom")}, "k2", "p");
  std::vector<CheckpointTuple> source = ThreadTuples(h.store(), "src");

  SUBCASE(
      "copies every namespace with ids, parents, metadata, values, writes") {
    RP_REQUIRE_OK(h.store().CopyThread("src", "dst"));
    h.Reopen();
    std::vector<CheckpointTuple> copy = ThreadTuples(h.store(), "dst");
    REQUIRE(copy.size() == source.size());
    for (size_t i = 0; i < copy.size(); ++i) {
      CHECK(copy[i] == InThread(source[i], "dst"));
    }
    CHECK(ThreadTuples(h.store(), "src") == source);
    // The copy is independent: writing to it leaves the source alone.
    DoWrites(h.store(), "dst", CpId(3), {W("extra", "x")}, "k3");
    DoPut(h.store(), {.thread = "dst", .id = CpId(9), .parent = CpId(3)});
    RP_REQUIRE_OK(h.store().DeleteThread("src"));
    h.Reopen();
    CHECK(ThreadTuples(h.store(), "dst").size() == source.size() + 1);
    CHECK(ValuesOf(MustGet(h.store(), Cfg("dst", CpId(3))).checkpoint) ==
          "a=src3");
  }
  SUBCASE("an unknown source leaves the target empty") {
    RP_REQUIRE_OK(h.store().CopyThread("nope", "dst"));
    h.Reopen();
    CHECK(ThreadTuples(h.store(), "dst").empty());
    CHECK(ThreadTuples(h.store(), "src") == source);
  }
}

RP_CONTRACT_CASE("contract prune") {
  RP_CONTRACT_USING;
  PutRunFixture(h.store(), "a");
  PutRunFixture(h.store(), "b");
  std::vector<CheckpointTuple> a_before = ThreadTuples(h.store(), "a");
  std::vector<CheckpointTuple> b_before = ThreadTuples(h.store(), "b");

  SUBCASE("keep_latest keeps the newest per (thread, ns) with writes") {
    RP_REQUIRE_OK(h.store().Prune({"a"}, PruneStrategy::kKeepLatest));
    h.Reopen();
    std::vector<CheckpointTuple> kept = ThreadTuples(h.store(), "a");
    CHECK(Keys(kept) == "a:n:1/cp0005 a/cp0003");
    for (const CheckpointTuple& tuple : kept) {
      CHECK(tuple == MustGet(h.store(), tuple.config));
    }
    CHECK(kept[1] == a_before[2]);  // cp3, writes and value intact.
    CHECK(kept[0] == a_before[0]);  // cp5.
    CHECK(ThreadTuples(h.store(), "b") == b_before);
  }
  SUBCASE("keep_last N") {
    RP_REQUIRE_OK(h.store().Prune({"a", "b"}, PruneStrategy::kKeepLatest, 2));
    h.Reopen();
    CHECK(Keys(ThreadTuples(h.store(), "a")) ==
          "a:n:1/cp0005 a:n:1/cp0004 a/cp0003 a/cp0002");
    CHECK(Keys(ThreadTuples(h.store(), "b")) ==
          "b:n:1/cp0005 b:n:1/cp0004 b/cp0003 b/cp0002");
    CHECK_FALSE(Get(h.store(), Cfg("a", CpId(1))).has_value());
  }
  SUBCASE("keep_last larger than the history keeps everything") {
    RP_REQUIRE_OK(h.store().Prune({"a"}, PruneStrategy::kKeepLatest, 10));
    h.Reopen();
    CHECK(ThreadTuples(h.store(), "a") == a_before);
  }
  SUBCASE("delete removes everything of the thread") {
    RP_REQUIRE_OK(h.store().Prune({"a"}, PruneStrategy::kDelete));
    h.Reopen();
    CHECK(ThreadTuples(h.store(), "a").empty());
    CHECK(ThreadTuples(h.store(), "b") == b_before);
  }
  SUBCASE("[] and unknown threads are no-ops") {
    RP_REQUIRE_OK(h.store().Prune({}, PruneStrategy::kDelete));
    RP_REQUIRE_OK(h.store().Prune({"nope"}, PruneStrategy::kDelete));
    RP_REQUIRE_OK(h.store().Prune({"nope"}, PruneStrategy::kKeepLatest, 1));
    h.Reopen();
    CHECK(ThreadTuples(h.store(), "a") == a_before);
    CHECK(ThreadTuples(h.store(), "b") == b_before);
  }
}
