// Contract suite, read-only opens (StoreOptions::read_only), on a store of
// the case's own (ContractStores): a read-only open reads everything a
// read-write one wrote, refuses every write with InvalidArgument "store
// opened read-only" and changes nothing. Compiled by contract_cases.cpp.
#pragma once

#include <string>
#include <vector>

#include "engine/contract_encryption.h"
#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"
#include "engine/delta_helpers.h"

namespace rockpoint::testing {

// `status` is the refusal of a write by a read-only store.
inline void CheckRefusedReadOnly(const Status& status) {
  INFO(status.ToString());
  CHECK(status.IsInvalidArgument());
  CHECK(status.message().find("store opened read-only") != std::string::npos);
}

}  // namespace rockpoint::testing

RP_CONTRACT_CASE(
    "contract read-only: reads everything, refuses every write, changes "
    "nothing") {
  RP_CONTRACT_USING;
  ContractStores* stores = StoresOf(h);
  if (stores == nullptr) return;
  std::string history;
  {
    std::unique_ptr<Checkpointer> writer = Unwrap(stores->Open("s", {}));
    PutDeltaThread(*writer, "d");
    history = HistoryOf(*writer, Cfg("d", CpId(7)));
  }
  const std::string before = stores->Fingerprint("s");
  const ListOptions all = ListOf(Cfg("d", std::nullopt, std::nullopt));
  std::vector<CheckpointTuple> tuples;
  {
    std::unique_ptr<Checkpointer> reader =
        Unwrap(stores->Open("s", {std::nullopt, /*read_only=*/true}));
    tuples = Collect(*reader, all);
    REQUIRE(tuples.size() == 12);
    CHECK(MustGet(*reader, Cfg("d")).config.checkpoint_id == CpId(11));
    CHECK(HistoryOf(*reader, Cfg("d", CpId(7))) == history);
    CHECK(Unwrap(reader->ListThreads({})).threads.size() == 1);

    CheckRefusedReadOnly(
        reader->Put(Cfg("d", CpId(11)), MakeCheckpoint(CpId(12)), Meta(), {})
            .status());
    CheckRefusedReadOnly(
        reader->PutWrites(Cfg("d", CpId(11)), {W("m", "x")}, "k"));
    CheckRefusedReadOnly(reader->DeleteThread("d"));
    CheckRefusedReadOnly(reader->DeleteForRuns({"d/run-0"}));
    CheckRefusedReadOnly(reader->CopyThread("d", "e"));
    CheckRefusedReadOnly(reader->HideCheckpoint(Cfg("d", CpId(3))));
    CheckRefusedReadOnly(reader->Prune({"d"}, PruneStrategy::kKeepLatest, 1));
    CheckRefusedReadOnly(reader->Prune({"d"}, PruneStrategy::kDelete));
    CHECK(Collect(*reader, all) == tuples);
  }
  CHECK(stores->Fingerprint("s") == before);
  CHECK(Collect(*Unwrap(stores->Open("s", {})), all) == tuples);
}
