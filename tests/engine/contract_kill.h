// Contract suite, durability under SIGKILL, on a store of the case's own
// (ContractStores) written by the backend's writer program: a child writes
// chains with synced puts and put_writes and acknowledges each call; the
// parent kills it at a random moment, reopens the store read-write and
// checks that every acknowledged call survived and nothing is
// half-written. The rounds run on one store, each continuing the chains of
// the last. Compiled by contract_cases.cpp.
#pragma once

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/contract_encryption.h"
#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"
#include "engine/rocksdb/chain_workload.h"
#include "engine/rocksdb/crash_checks.h"

RP_CONTRACT_CASE(
    "contract kill: a SIGKILLed synced writer loses no acknowledged call and "
    "leaves nothing half-written") {
  RP_CONTRACT_USING;
  ContractStores* stores = StoresOf(h);
  if (stores == nullptr) return;
  const std::optional<KillPlan> plan = stores->KillPlanFor("s");
  if (!plan) {
    MESSAGE("skipped: this backend's harness has no writer program to kill");
    return;
  }
  const uint64_t seed = Seed();
  INFO("seed " << seed << " (set ROCKPOINT_CRASH_SEED to replay)");
  std::mt19937_64 rng(seed);
  const std::vector<Chain> chains = CrashChains(plan->prefix, plan->text_ids);
  std::vector<ChainState> state(chains.size());
  Tally tally;
  for (int round = 0; round < plan->rounds; ++round) {
    CAPTURE(round);
    const bool early =
        round % plan->early_kill_every == plan->early_kill_every - 1;
    stores->Release("s");
    RecordAcks(RunKilledWriter(plan->binary, plan->args, early, &rng), &state,
               &tally);
    std::unique_ptr<Checkpointer> store = Unwrap(stores->Open("s", {}));
    if (stores->CheckRecovered("s", *store)) ++tally.torn_tails;
    VerifyStore(store.get(), chains, &state, &tally);
    if (round % plan->compact_every == plan->compact_every - 1) {
      const Status compacted = stores->Compact(*store);
      CHECK_MESSAGE(compacted.ok(), compacted.ToString());
    }
  }
  MESSAGE("kill rounds " << plan->rounds << ": " << tally.acked_puts
                         << " acknowledged puts, " << tally.acked_writes
                         << " acknowledged put_writes, "
                         << tally.acked_compactions
                         << " acknowledged compactions; after kills, "
                         << tally.unacknowledged_puts_found
                         << " unacknowledged puts were found, "
                         << tally.checkpoints_without_writes
                         << " latest checkpoints had no writes yet, "
                         << tally.torn_tails << " opens cut a torn tail");
  // Every non-early round waited for an acknowledged put.
  CHECK(tally.acked_puts >=
        plan->rounds - plan->rounds / plan->early_kill_every);
}
