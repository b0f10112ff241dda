// A retention check any backend's tests run: sweeps racing with writers
// never delete a checkpoint written after the sweep began.
#pragma once

#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "engine/contract_helpers.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/retention.h"

namespace rockpoint::testing {

// Old threads o0..o7 (checkpoints an hour apart, all expired at `now`)
// while 3 writers put fresh checkpoints (ts = now) on top of o0..o5 and on
// threads of their own, and sweeps of max_age 1h and max_idle 1h run back
// to back until the writers are done. Afterwards every fresh checkpoint a
// writer was acknowledged is there, and what the old threads kept is only what
// fresh ones need.
inline void CheckSweepsRacingWriters(Checkpointer& store) {
  const RetentionTime now = *ParseCheckpointTs("2026-11-05T00:00:00Z");
  for (int t = 0; t < 8; ++t) {
    const std::string thread = "o" + std::to_string(t);
    for (int i = 0; i < 6; ++i) {
      DoPut(store, {.thread = thread,
                    .id = CpId(i),
                    .parent = i > 0 ? std::optional(CpId(i - 1)) : std::nullopt,
                    .values = {{"v", Val(thread + std::to_string(i))}},
                    .versions = {{"v", int64_t{i + 1}}},
                    .ts = "2026-11-01T0" + std::to_string(i) + ":00:00Z"});
    }
  }
  RetentionPolicy policy;
  policy.max_age = std::chrono::hours(1);
  policy.max_idle = std::chrono::hours(1);
  policy.sweep_batch_threads = 3;

  // Each writer puts 150 checkpoints; sweeps run back to back until every
  // writer is done (and at least 5 times).
  std::atomic<int> writing = 3;
  std::vector<std::vector<CheckpointConfig>> acknowledged(3);
  std::vector<std::thread> writers;
  for (int w = 0; w < 3; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < 150; ++i) {
        const std::string thread =
            i % 2 == 0 ? "o" + std::to_string(i % 6) : "w" + std::to_string(w);
        Checkpoint checkpoint = MakeCheckpoint(
            "fresh-" + std::to_string(w) + "-" + std::to_string(1000 + i),
            {{"v", Val("fresh")}}, {{"v", int64_t{100 + i}}},
            "2026-11-05T00:00:00Z");
        auto put = store.Put({thread, "", CpId(5)}, checkpoint, Meta(),
                             checkpoint.channel_versions);
        if (put.ok()) acknowledged[w].push_back(*put);
      }
      --writing;
    });
  }
  Status swept;
  for (int sweeps = 0; swept.ok() && (sweeps < 5 || writing.load() > 0);
       ++sweeps) {
    swept = store.Sweep(policy, now).status();
  }
  for (std::thread& writer : writers) writer.join();
  RP_REQUIRE_OK(swept);
  size_t fresh = 0;
  for (const auto& configs : acknowledged) {
    for (const CheckpointConfig& config : configs) {
      INFO("acknowledged " << config);
      CHECK(Get(store, config).has_value());
      ++fresh;
    }
  }
  CHECK(fresh == 3 * 150);
  // One more sweep leaves only fresh checkpoints visible.
  REQUIRE(store.Sweep(policy, now).ok());
  for (const CheckpointTuple& tuple : Collect(store, {})) {
    CHECK(tuple.checkpoint.ts == "2026-11-05T00:00:00Z");
  }
}

}  // namespace rockpoint::testing
