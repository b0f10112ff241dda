// Contract suite, copy_thread into a thread that already has checkpoints:
// refused with InvalidArgument naming the target, and nothing changes, so
// no checkpoint of either thread reads anything other than before. Covers
// the sequence a differential run found (copied values at a (namespace,
// channel, version) the target already stored), a target whose checkpoints
// are all hidden, delta channels, and copying a thread onto itself.
// Compiled by contract_cases.cpp.
#pragma once

#include <string>

#include "engine/contract_delete.h"
#include "engine/contract_delta_safety.h"
#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"

namespace rockpoint::testing {

// Every tuple of `thread`, hidden ones included, newest first.
inline std::vector<CheckpointTuple> AllTuples(Checkpointer& store,
                                              const std::string& thread) {
  ListOptions options = ListOf(Cfg(thread, std::nullopt, std::nullopt));
  options.include_hidden = true;
  return Collect(store, options);
}

// REQUIREs that `status` is copy_thread's refusal of target `target`.
inline void CheckRefusedTarget(const Status& status,
                               const std::string& target) {
  CHECK(status.IsInvalidArgument());
  CHECK(status.message().find("target thread '" + target + "'") !=
        std::string::npos);
}

}  // namespace rockpoint::testing

RP_CONTRACT_CASE("contract copy_thread into a non-empty target") {
  RP_CONTRACT_USING;

  SUBCASE("a target sharing a (namespace, channel, version) is refused") {
    const std::string ns = "sub:1|x";
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(1),
                      .values = {{"b", Val("A")}},
                      .versions = {{"b", int64_t{3}}},
                      .metadata = Meta({{"run_id", Value("r2")}}),
                      .ns = ns});
    DoPut(h.store(), {.thread = "t1",
                      .id = CpId(4),
                      .parent = CpId(2),
                      .values = {{"b", Val("B")}},
                      .versions = {{"b", int64_t{3}}},
                      .ns = ns});
    const auto target_before = AllTuples(h.store(), "t");
    const auto source_before = AllTuples(h.store(), "t1");
    CheckRefusedTarget(h.store().CopyThread("t1", "t"), "t");
    h.Reopen();
    CHECK(AllTuples(h.store(), "t") == target_before);
    CHECK(AllTuples(h.store(), "t1") == source_before);
    // Once the target is gone, the copy reads exactly what the source reads.
    RP_REQUIRE_OK(h.store().DeleteForRuns({"r2"}));
    CHECK(AllTuples(h.store(), "t").empty());
    RP_REQUIRE_OK(h.store().CopyThread("t1", "t"));
    h.Reopen();
    const CheckpointTuple copied = MustGet(h.store(), Cfg("t", CpId(4), ns));
    CHECK(ValuesOf(copied.checkpoint) == "b=B");
    CHECK(AllTuples(h.store(), "t").size() == 1);
  }
  SUBCASE("a target whose checkpoints are all hidden is refused") {
    DoPut(h.store(), {.thread = "src", .id = CpId(1)});
    const CheckpointConfig hidden =
        DoPut(h.store(), {.thread = "dst",
                          .id = CpId(1),
                          .values = {{"a", Val("old")}},
                          .versions = {{"a", int64_t{1}}}});
    RP_REQUIRE_OK(h.store().HideCheckpoint(hidden));
    REQUIRE(ThreadTuples(h.store(), "dst").empty());
    const auto target_before = AllTuples(h.store(), "dst");
    REQUIRE(target_before.size() == 1);
    CheckRefusedTarget(h.store().CopyThread("src", "dst"), "dst");
    h.Reopen();
    CHECK(AllTuples(h.store(), "dst") == target_before);
  }
  SUBCASE("a target with delta channels is refused; its reads stay") {
    PutDeltaThread(h.store(), "d", "", 8);
    PutDeltaThread(h.store(), "e", "", 6);
    const Readings target_before = ReadThread(h.store(), "e");
    const Readings source_before = ReadThread(h.store(), "d");
    CheckRefusedTarget(h.store().CopyThread("d", "e"), "e");
    h.Reopen();
    const Readings target_after = ReadThread(h.store(), "e");
    CHECK(ReadingKeys(target_after) == ReadingKeys(target_before));
    CheckSameReadings(target_before, target_after, "e");
    CheckSameReadings(source_before, ReadThread(h.store(), "d"), "d");
  }
  SUBCASE("an unknown source into a non-empty target is refused too") {
    DoPut(h.store(), {.thread = "dst", .id = CpId(1)});
    CheckRefusedTarget(h.store().CopyThread("nope", "dst"), "dst");
  }
  SUBCASE("a thread copied onto itself: refused, or a no-op when empty") {
    DoPut(h.store(), {.thread = "self", .id = CpId(1)});
    const auto before = AllTuples(h.store(), "self");
    CheckRefusedTarget(h.store().CopyThread("self", "self"), "self");
    CHECK(AllTuples(h.store(), "self") == before);
    RP_REQUIRE_OK(h.store().CopyThread("empty", "empty"));
    CHECK(AllTuples(h.store(), "empty").empty());
  }
}
