// SinkCheckpointer: a Checkpointer that keeps only the latest checkpoint of
// each (thread, namespace) and discards everything else, after waiting a
// fixed delay (busy wait) per write call (a stand-in for storage latency, so
// that the runtime's async queue fills and its backpressure works). Its memory
// does not grow with the number of checkpoints: a long run on it measures the
// runtime's own memory. Not a conforming backend: reads see only the latest
// checkpoint (no pending writes, no delta history, no listing).
//
// Thread-safety: safe to call from many threads.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint::bench {

class SinkCheckpointer final : public Checkpointer {
 public:
  explicit SinkCheckpointer(std::chrono::microseconds write_delay)
      : write_delay_(write_delay) {}

 private:
  // The backend hooks (rockpoint/checkpointer.h).
  // DoHideCheckpoint forgets the checkpoint if it is the latest of its
  // namespace (the only one kept), NotFound otherwise; DoExpire expires
  // nothing (it keeps only the latest checkpoints); DoClose forgets
  // everything.
  ROCKPOINT_CHECKPOINTER_HOOKS(, override)
  const std::chrono::microseconds write_delay_;
  base::Mutex mu_;
  bool closed_ GUARDED_BY(mu_) = false;
  // (thread, ns) -> latest tuple.
  std::map<std::pair<std::string, std::string>, CheckpointTuple> latest_
      GUARDED_BY(mu_);
};

}  // namespace rockpoint::bench
