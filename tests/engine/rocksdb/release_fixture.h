// The content of the release fixtures in tests/engine/rocksdb/fixtures/:
// stores written by a released build (release_fixture_main.cpp, built at
// that release), which every later build must open and read
// (release_fixture_test.cpp). Written once per release: WriteHistory must
// not change, or the committed stores no longer match it.
//
// Two threads: "a" (namespace "") of six checkpoints, whose channel "cfg" is
// stored once and inherited, pending writes on cp0001..cp0005 and none on
// the latest, cp0006; "b" (namespace "sub") of two, with pending writes on
// the latest. The first four checkpoints of "a" and all of "b" are
// compacted into table files; cp0005 and cp0006 stay in the write-ahead
// log.
#pragma once

#include <string>

#include "engine/store_builders.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"

namespace rockpoint::testing::release_fixture {

inline constexpr int kThreadALength = 6;

// The encrypted fixture's key: 32 bytes "k".
inline std::string Key() { return std::string(kEncryptionKeyBytes, 'k'); }

inline std::string MessageOf(int step) { return "m" + std::to_string(step); }

inline ChannelWrite RegularWrite(int step) {
  return W("msgs", "w" + std::to_string(step));
}

inline ChannelWrite ErrorWrite(int step) {
  return W("__error__", "e" + std::to_string(step));
}

// Step `step` (1-based) of thread `thread` in `ns`: "msgs" changes at every
// step, "cfg" is stored at step 1 only.
inline Status PutStep(Checkpointer& store, const std::string& thread,
                      const std::string& ns, int step) {
  Checkpoint checkpoint = MakeCheckpoint(CpId(step));
  checkpoint.channel_values["msgs"] = Val(MessageOf(step));
  checkpoint.channel_versions["msgs"] = int64_t{step};
  checkpoint.channel_versions["cfg"] = int64_t{1};
  ChannelVersions new_versions{{"msgs", int64_t{step}}};
  if (step == 1) {
    checkpoint.channel_values["cfg"] = Val("c1");
    new_versions["cfg"] = int64_t{1};
  }
  std::optional<std::string> parent;
  if (step > 1) parent = CpId(step - 1);
  const Value metadata = Meta(
      {{"step", Value(int64_t{step})}, {"run_id", Value("run-" + thread)}});
  return store.Put(Cfg(thread, parent, ns), checkpoint, metadata, new_versions)
      .status();
}

inline Status PutStepWrites(Checkpointer& store, const std::string& thread,
                            const std::string& ns, int step) {
  return store.PutWrites(Cfg(thread, CpId(step), ns),
                         {RegularWrite(step), ErrorWrite(step)}, "task-1");
}

// The part written before the compaction, then the part after it.
inline Status WriteCompacted(Checkpointer& store) {
  for (int step = 1; step <= 4; ++step) {
    RP_RETURN_IF_ERROR(PutStep(store, "a", "", step));
    RP_RETURN_IF_ERROR(PutStepWrites(store, "a", "", step));
  }
  for (int step = 1; step <= 2; ++step) {
    RP_RETURN_IF_ERROR(PutStep(store, "b", "sub", step));
  }
  return PutStepWrites(store, "b", "sub", 2);
}

inline Status WriteLogged(Checkpointer& store) {
  RP_RETURN_IF_ERROR(PutStep(store, "a", "", 5));
  RP_RETURN_IF_ERROR(PutStepWrites(store, "a", "", 5));
  return PutStep(store, "a", "", kThreadALength);
}

}  // namespace rockpoint::testing::release_fixture
