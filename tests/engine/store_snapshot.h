// A store whose whole readable content a test compares before and after
// something that must change no answer (a reopen under another key, a
// Rekey): the threads of PutDeltaThreads and PutHiddenThread, and a
// Snapshot of everything they read back. Shared by the backends'
// encryption tests.
#pragma once

#include <string>
#include <vector>

#include "engine/contract_helpers.h"
#include "engine/delta_helpers.h"

namespace rockpoint::testing {

// Strings put in a value, metadata and a write: found in a store's bytes
// only if something was not sealed.
inline constexpr const char* kValueMarker = "VALUE-MARKER-3f9a";
inline constexpr const char* kMetaMarker = "META-MARKER-77c1";
inline constexpr const char* kWriteMarker = "WRITE-MARKER-b20e";

// Thread "d" (delta channels, runs, writes, two namespaces) and thread "h"
// (pruned: hidden checkpoints); the caller adds thread "m" of its own
// between them.
inline void PutDeltaThreads(Checkpointer& store) {
  PutDeltaThread(store, "d");
  PutDeltaThread(store, "d", "n:1", 7, 3);
}
inline void PutHiddenThread(Checkpointer& store) {
  PutDeltaThread(store, "h");
  RP_REQUIRE_OK(store.Prune({"h"}, PruneStrategy::kKeepLatest, 1));
}

// Everything a store reads back: every visible tuple, the hidden ones of
// "h", the delta readings of "d", the thread list.
struct Snapshot {
  std::vector<CheckpointTuple> all;
  std::vector<CheckpointTuple> hidden;
  Readings d;
  std::vector<ThreadInfo> threads;
};

inline Snapshot Take(Checkpointer& store) {
  Snapshot snapshot;
  snapshot.all = Collect(store, ListOf(std::nullopt));
  ListOptions hidden = ListOf(Cfg("h", std::nullopt, std::nullopt));
  hidden.include_hidden = true;
  snapshot.hidden = Collect(store, hidden);
  snapshot.d = ReadThread(store, "d");
  snapshot.threads = Unwrap(store.ListThreads({})).threads;
  return snapshot;
}

// `after` reads exactly as `before`, which holds the threads above.
inline void CheckSame(const Snapshot& before, const Snapshot& after) {
  REQUIRE(before.all.size() > 20);
  CHECK(after.all == before.all);
  CHECK(after.hidden.size() > 1);
  CHECK(after.hidden == before.hidden);
  CHECK(after.d.size() == before.d.size());
  CheckSameReadings(before.d, after.d, "d");
  CHECK(after.threads == before.threads);
}

}  // namespace rockpoint::testing
