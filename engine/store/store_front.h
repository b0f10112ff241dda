// Store::Front: the state behind a Store and the order of a call: validate
// every op, read on one snapshot, then plan and apply the writes under the
// write lock.
//
// Thread-safety: calls hold life_mu_ shared and Close holds it exclusive,
// so Close waits for the calls in flight; commit_mu_ keeps vector queries
// and their snapshot in step with the index (below);
// so Close waits for the calls in flight; writes are serialized by
// write_mu_; the sweeper thread calls SweepExpired like any caller and is
// stopped before Close takes life_mu_.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/store/store_backend.h"
#include "engine/store/store_layout.h"
#include "engine/store/store_writes.h"
#include "engine/store/vector_index.h"
#include "rockpoint/store.h"

namespace rockpoint {

class Store::Front {
 public:
  // `index` is null without options.index, else loaded.
  Front(std::unique_ptr<store_internal::StoreBackend> backend,
        const StoreOpenOptions& options, std::string name,
        std::unique_ptr<store_internal::VectorIndex> index);
  ~Front();

  Result<std::vector<StoreOpResult>> Batch(const std::vector<StoreOp>& ops);
  Result<uint64_t> SweepExpired();
  Result<std::optional<StoreIndexStats>> IndexStats();
  // store_transfer.cpp
  Status ExportItems(const std::function<Status(const StoredItem&)>& visit);
  Status ImportItems(const std::vector<StoredItem>& items);
  // store_verify.cpp
  Result<StoreVerifyReport> Verify();
  Status Close();

  const std::optional<size_t> dims;

 private:
  int64_t Now() const;
  // Writes `mutations` and brings the vector index up to date.
  Status Commit(const std::vector<store_internal::StoreMutation>& mutations,
                bool sync);
  // Writes the puts of a batch (the last per key) and the refreshes of
  // what it read.
  Status ApplyWrites(const std::vector<const PutOp*>& puts,
                     const std::vector<store_internal::ItemAddress>& refreshes,
                     int64_t now_us);
  Result<store_internal::MutationPlan::SweepCount> SweepOnce(int64_t now_us);
  void StartSweeper();
  void StopSweeper();
  void SweeperLoop();

  std::unique_ptr<store_internal::StoreBackend> backend_;
  // Updated after every write that changes vectors, under write_mu_.
  std::unique_ptr<store_internal::VectorIndex> index_;
  const StoreOpenOptions options_;
  const std::string name_;

  // Held exclusive across a backend write and the vector index's update,
  // and shared by a read phase that queries vectors, from its snapshot to
  // its last index query: such a read sees the index as of its snapshot.
  std::shared_mutex commit_mu_;
  std::shared_mutex life_mu_;
  bool closed_ = false;  // guarded by life_mu_.
  base::Mutex write_mu_;

  base::Mutex sweeper_mu_;
  base::CondVar sweeper_wake_;
  bool sweeper_stop_ GUARDED_BY(sweeper_mu_) = false;
  std::thread sweeper_;
};

}  // namespace rockpoint
