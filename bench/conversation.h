// A simulated conversation: N turns, each appending one message to a
// "messages" channel, persisted the way the runtime persists it
// (runtime/FORMAT.md "Delta channels"). Used by the delta-history benchmark
// (chains of ancestors) and the storage-growth study.
//
// Turn 0 is a root checkpoint storing the empty list. Turn i (1..N):
//   1. put_writes on checkpoint i-1: (messages, message_i), task "turn-i";
//   2. put checkpoint i, child of i-1, channel "messages" at version i+1 and
//      in new_versions, with
//        kFullSnapshots: the whole list as a plain value (a last-value
//                        channel holding the list), every turn;
//        kDelta:         no value ("empty") except every `snapshot_every`
//                        turns, when the whole list is stored as a delta
//                        snapshot (msgpack ext kDeltaSnapshotExtTag wrapping
//                        the encoded list). snapshot_every = 0: never (only
//                        the root's empty list).
//        kDeltaGeometric: as kDelta, but a snapshot is stored when the
//                        runtime's geometric SnapshotPolicy `geometric`
//                        (runtime/snapshot_policy.h, the same SnapshotDue)
//                        is due: the message bytes since the last snapshot
//                        reach max(min_bytes, ratio x that snapshot's
//                        stored bytes).
//      and metadata {source: "loop", step: i,
//                    counters_since_delta_snapshot: {messages: [n, n]}},
//      plus, for kDeltaGeometric, delta_snapshot_bytes: {messages:
//      [message bytes since the snapshot, its stored bytes]} as the
//      runtime writes them.
// Turn 0's root stores the empty list: a snapshot in the delta modes.
// A message is the msgpack map {role, content}, content `message_bytes` of
// text.
//
// Thread-safety: pure functions over the given store.
#pragma once

#include <cstdint>
#include <string>

#include "rockpoint/checkpointer.h"
#include "rockpoint/runtime/snapshot_policy.h"
#include "rockpoint/status.h"
#include "rockpoint/stored_forms.h"
#include "rockpoint/value.h"

namespace rockpoint::bench {

enum class Persistence { kFullSnapshots, kDelta, kDeltaGeometric };

struct ConversationSpec {
  std::string thread;
  size_t turns = 0;
  size_t message_bytes = 512;
  Persistence mode = Persistence::kDelta;
  size_t snapshot_every = 0;  // kDelta only; 0: never.
  // kDeltaGeometric only. REQUIRES: kind kGeometric, ratio finite and > 0.
  runtime::SnapshotPolicy geometric = runtime::SnapshotPolicy::Geometric();
};

// What a written conversation stored.
struct ConversationStats {
  uint64_t message_bytes = 0;  // serialized messages, all turns.
  size_t snapshots = 0;        // checkpoints storing the whole list.
  size_t replay_writes = 0;    // writes a load of the latest replays.
};

// Writes the conversation. *message_bytes_total (if given) gets the sum of
// the serialized sizes of all messages (the user bytes); *stats (if given)
// everything ConversationStats counts.
Status WriteConversation(Checkpointer& store, const ConversationSpec& spec,
                         uint64_t* message_bytes_total,
                         ConversationStats* stats = nullptr);

// The latest message list of `thread`: get_tuple; the stored value if the
// checkpoint has one (unwrapping a snapshot), else
// get_delta_channel_history + replay of the writes onto the seed.
Result<serde::Value::Array> LoadConversation(Checkpointer& store,
                                             const std::string& thread);

}  // namespace rockpoint::bench
