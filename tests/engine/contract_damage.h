// Contract suite, damaged plaintext stores, on a store of the case's own
// with raw access (ContractStores): a lost value record, or a checkpoint
// record that does not decode, is Corruption naming it in every read that
// needs it, never another value or a silently missing channel; reads that
// do not need it still succeed, and a retention call that meets it fails
// and changes nothing. Compiled by contract_cases.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/contract_encryption.h"
#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"
#include "engine/damage_fixtures.h"

namespace rockpoint::testing {

// Every tuple a list of `options` returns before its error, which is
// Corruption naming `names`; none is checkpoint `damaged`.
inline void CheckListStopsAt(Checkpointer& store, const ListOptions& options,
                             const std::string& damaged,
                             const std::vector<std::string>& names) {
  std::unique_ptr<TupleCursor> cursor = Unwrap(store.List(options));
  Result<std::optional<CheckpointTuple>> next = cursor->Next();
  while (next.ok() && next->has_value()) {
    CHECK((*next)->checkpoint.id != damaged);
    next = cursor->Next();
  }
  CheckCorruption(next.status(), names);
}

}  // namespace rockpoint::testing

// Issue #19, defect 2: a checkpoint whose value record was lost read back
// without that channel.
RP_CONTRACT_CASE(
    "contract damage: a lost value record is Corruption naming it") {
  RP_CONTRACT_USING;
  ContractStores* stores = StoresOf(h, /*raw=*/true);
  if (stores == nullptr) return;
  PutLostValueThreads(*Unwrap(stores->Open("s", {})));
  const std::optional<std::vector<std::string>> names =
      stores->DeleteRecord("s", {RecordKind::kValue, "t", CpId(1), 1});
  if (!names) {
    MESSAGE("skipped: this backend's harness cannot delete a record");
    return;
  }
  std::unique_ptr<Checkpointer> store = Unwrap(stores->Open("s", {}));
  CheckCorruption(store->GetTuple(Cfg("t", CpId(1))).status(), *names);
  CheckCorruption(store->GetTuple(Cfg("t", CpId(2))).status(),
                  *names);  // inherited
  CheckCorruption(
      Unwrap(store->List(ListOf(Cfg("t", CpId(1)))))->Next().status(), *names);
  CheckCorruption(
      store->GetDeltaChannelHistory(Cfg("t", CpId(3)), {"a"}).status(), *names);
  CHECK(ValuesOf(MustGet(*store, Cfg("t", CpId(3))).checkpoint).empty());
  CHECK(ValuesOf(MustGet(*store, Cfg("u")).checkpoint).empty());
}

RP_CONTRACT_CASE(
    "contract damage: a checkpoint record that does not decode is Corruption "
    "naming it") {
  RP_CONTRACT_USING;
  ContractStores* stores = StoresOf(h, /*raw=*/true);
  if (stores == nullptr) return;
  {
    std::unique_ptr<Checkpointer> store = Unwrap(stores->Open("s", {}));
    for (int i = 1; i <= 2; ++i) {
      DoPut(*store,
            {.thread = "t",
             .id = CpId(i),
             .parent = i > 1 ? std::optional(CpId(i - 1)) : std::nullopt,
             .values = {{"a", Val(std::to_string(i))}},
             .versions = {{"a", int64_t{i}}}});
    }
    DoPut(*store, {.thread = "t",
                   .id = CpId(3),
                   .parent = CpId(2),
                   .versions = {{"a", int64_t{2}}},
                   .new_versions = ChannelVersions{}});
    DoWrites(*store, "t", CpId(1), {W("a", "w")}, "task");
  }
  const std::optional<std::vector<std::string>> names =
      stores->BreakRecord("s", {RecordKind::kCheckpoint, "t", CpId(2)});
  if (!names) {
    MESSAGE("skipped: this backend's harness cannot break a record");
    return;
  }
  const std::string before = stores->Records("s");
  {
    std::unique_ptr<Checkpointer> store = Unwrap(stores->Open("s", {}));
    CheckCorruption(store->GetTuple(Cfg("t", CpId(2))).status(), *names);
    CheckCorruption(
        store->GetDeltaChannelHistory(Cfg("t", CpId(3)), {"a"}).status(),
        *names);
    CheckListStopsAt(*store, ListOf(Cfg("t", std::nullopt, std::nullopt)),
                     CpId(2), *names);
    // A retention call that meets it fails and changes nothing.
    CheckCorruption(store->Prune({"t"}, PruneStrategy::kKeepLatest), *names);
    // The intact checkpoints still read.
    CHECK(ValuesOf(MustGet(*store, Cfg("t", CpId(1))).checkpoint) == "a=1");
    CHECK(MustGet(*store, Cfg("t", CpId(1))).pending_writes.size() == 1);
    CHECK(MustGet(*store, Cfg("t", CpId(3))).checkpoint.id == CpId(3));
  }
  CHECK(stores->Records("s") == before);
  // The thread can still be deleted.
  std::unique_ptr<Checkpointer> store = Unwrap(stores->Open("s", {}));
  RP_REQUIRE_OK(store->DeleteThread("t"));
  CHECK_FALSE(Get(*store, Cfg("t")).has_value());
}
