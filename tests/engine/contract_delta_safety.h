// Contract suite, delta safety: after prune, delete_for_runs and copy_thread
// every surviving checkpoint (and every copy) reads and reconstructs exactly
// as before, even when its delta history ran through removed checkpoints.
// Compiled by contract_cases.cpp.
#pragma once

#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"
#include "engine/delta_helpers.h"

RP_CONTRACT_CASE("contract delta safety") {
  RP_CONTRACT_USING;
  PutDeltaThread(h.store(), "d");
  PutDeltaThread(h.store(), "d", "n:1", 7, 3);
  PutDeltaThread(h.store(), "ref");
  h.Reopen();
  const Readings before = ReadThread(h.store(), "d");
  REQUIRE(before.size() == 19);
  // Sanity: the fixture really has delta reads through several ancestors.
  CHECK(before.at({"", CpId(7)}).msgs ==
        "delta snapshot@4: cp0004/task4#0=m4a cp0004/task4#1=m4b "
        "cp0005/task5#0=m5a cp0005/task5#1=m5b cp0005/p/side#0=side5 "
        "cp0006/task6#0=m6a cp0006/task6#1=m6b");

  SUBCASE("prune keep_latest keeps what the kept checkpoints read") {
    for (size_t keep : {3, 1}) {
      CAPTURE(keep);
      RP_REQUIRE_OK(h.store().Prune({"d"}, PruneStrategy::kKeepLatest, keep));
      h.Reopen();
      Readings after = ReadThread(h.store(), "d");
      CHECK(after.size() == 2 * keep);
      CheckSameReadings(before, after, "d");
      CHECK_FALSE(Get(h.store(), Cfg("d", CpId(8))).has_value());
      CHECK(Collect(h.store(), ListOf(std::nullopt, Meta({{"step", Value(8)}})))
                .size() == 1);  // only "ref" still lists step 8.
    }
  }

  SUBCASE("delete_for_runs keeps what the survivors read") {
    RP_REQUIRE_OK(h.store().DeleteForRuns({"d/run-1"}));
    h.Reopen();
    Readings after = ReadThread(h.store(), "d");
    CHECK(ReadingKeys(after) ==
          "/cp0000 /cp0001 /cp0002 /cp0006 /cp0007 /cp0008 /cp0009 /cp0010 "
          "/cp0011 n:1/cp0000 n:1/cp0001 n:1/cp0002 n:1/cp0006");
    CheckSameReadings(before, after, "d");
    CHECK_FALSE(Get(h.store(), Cfg("d", CpId(4))).has_value());
    // Then prune on top: the history of the kept ones is still intact.
    RP_REQUIRE_OK(h.store().Prune({"d"}, PruneStrategy::kKeepLatest, 5));
    RP_REQUIRE_OK(h.store().DeleteForRuns({"d/run-2"}));
    h.Reopen();
    after = ReadThread(h.store(), "d");
    CHECK(ReadingKeys(after) ==
          "/cp0009 /cp0010 /cp0011 n:1/cp0000 n:1/cp0001 n:1/cp0002");
    CheckSameReadings(before, after, "d");
  }

  SUBCASE("copy_thread copies reconstruct exactly, hidden parts included") {
    RP_REQUIRE_OK(h.store().CopyThread("d", "full"));
    RP_REQUIRE_OK(h.store().Prune({"d"}, PruneStrategy::kKeepLatest, 2));
    RP_REQUIRE_OK(h.store().CopyThread("d", "pruned"));
    RP_REQUIRE_OK(h.store().DeleteThread("d"));
    h.Reopen();
    Readings full = ReadThread(h.store(), "full");
    CHECK(full.size() == before.size());
    CheckSameReadings(before, full, "full");
    Readings pruned = ReadThread(h.store(), "pruned");
    CHECK(ReadingKeys(pruned) == "/cp0010 /cp0011 n:1/cp0005 n:1/cp0006");
    CheckSameReadings(before, pruned, "pruned");
  }

  SUBCASE("a pruned thread continues exactly like an unpruned one") {
    RP_REQUIRE_OK(h.store().Prune({"d"}, PruneStrategy::kKeepLatest, 1));
    RP_REQUIRE_OK(h.store().DeleteForRuns({"d/run-3"}));  // cp0009..cp0011.
    h.Reopen();
    // d/run-3 deleted everything visible in "": the namespace is gone from
    // sight, n:1 keeps its latest.
    CHECK(ReadingKeys(ReadThread(h.store(), "d")) == "n:1/cp0006");
    // Both threads continue from cp0011, which "d" no longer has.
    for (const char* thread : {"d", "ref"}) {
      PutDeltaStep(h.store(), thread, CpId(20), CpId(11), int64_t{50}, {},
                   {"x"});
      PutDeltaStep(h.store(), thread, CpId(21), CpId(20), int64_t{51}, {}, {});
    }
    h.Reopen();
    // cp0011 was deleted by run, so d's history ends at the missing parent.
    CHECK(HistoryOf(h.store(), Cfg("d", CpId(21))) == "-: cp0020/k#0=x");
    CHECK(HistoryOf(h.store(), Cfg("ref", CpId(21))) ==
          "snapshot@8: cp0008/task8#0=m8a cp0008/task8#1=m8b "
          "cp0009/task9#0=m9a cp0009/task9#1=m9b cp0009/p/side#0=side9 "
          "cp0010/task10#0=m10a cp0010/task10#1=m10b "
          "cp0011/task11#0=m11a cp0011/task11#1=m11b cp0011/p/side#0=side11 "
          "cp0020/k#0=x");
  }

  SUBCASE("a kept checkpoint's new children read through hidden ancestors") {
    RP_REQUIRE_OK(h.store().Prune({"d", "ref"}, PruneStrategy::kKeepLatest, 1));
    for (const char* thread : {"d", "ref"}) {
      PutDeltaStep(h.store(), thread, CpId(20), CpId(11), int64_t{50}, {}, {});
    }
    h.Reopen();
    CHECK(HistoryOf(h.store(), Cfg("d", CpId(20))) ==
          "snapshot@8: cp0008/task8#0=m8a cp0008/task8#1=m8b "
          "cp0009/task9#0=m9a cp0009/task9#1=m9b cp0009/p/side#0=side9 "
          "cp0010/task10#0=m10a cp0010/task10#1=m10b "
          "cp0011/task11#0=m11a cp0011/task11#1=m11b cp0011/p/side#0=side11");
    CHECK(HistoryOf(h.store(), Cfg("ref", CpId(20))) ==
          HistoryOf(h.store(), Cfg("d", CpId(20))));
  }

  SUBCASE("other threads are untouched") {
    const Readings ref = ReadThread(h.store(), "ref");
    RP_REQUIRE_OK(h.store().Prune({"d"}, PruneStrategy::kKeepLatest, 1));
    RP_REQUIRE_OK(h.store().DeleteForRuns({"no-such-run"}));
    RP_REQUIRE_OK(h.store().Prune({"d"}, PruneStrategy::kDelete));
    h.Reopen();
    Readings after = ReadThread(h.store(), "ref");
    CHECK(after.size() == ref.size());
    CheckSameReadings(ref, after, "ref");
    CHECK(ReadThread(h.store(), "d").empty());
  }
}
