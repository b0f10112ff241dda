// ForwardingCheckpointer: a Checkpointer that passes every call on to
// another one (its target). Wrappers (retention, encryption, recording in
// tests) derive from it and override only what they change.
//
// Ownership is stated at construction: the unique_ptr constructor owns the
// target and destroys it with the wrapper; the pointer constructor borrows
// it (REQUIRES: the target outlives the wrapper). Close() is forwarded either
// way: closing a wrapper closes the store under it.
//
// Thread-safety: as the target's; the forwarding itself keeps no state.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/checkpointer.h"

namespace rockpoint {

class ForwardingCheckpointer : public Checkpointer {
 public:
  // Borrows `target`. REQUIRES: target is not null and outlives this.
  explicit ForwardingCheckpointer(Checkpointer* target) : target_(target) {}
  // Owns `target`. REQUIRES: target is not null.
  explicit ForwardingCheckpointer(std::unique_ptr<Checkpointer> target)
      : owned_(std::move(target)), target_(owned_.get()) {}
  ~ForwardingCheckpointer() override = default;

  // The checkpointer calls are forwarded to.
  Checkpointer* target() const { return target_; }

 protected:
  // The hooks a wrapper overrides; each passes the call on to the target's
  // front. A wrapper's own front checks only that it is open, so a hook sees
  // the caller's input unchecked: the target checks it.
  Result<CheckpointConfig> DoPut(const CheckpointConfig& config,
                                 const Checkpoint& checkpoint,
                                 const Metadata& metadata,
                                 const ChannelVersions& new_versions) override {
    return target_->Put(config, checkpoint, metadata, new_versions);
  }
  Status DoPutWrites(const CheckpointConfig& config,
                     const std::vector<ChannelWrite>& writes,
                     std::string_view task_id,
                     std::string_view task_path) override {
    return target_->PutWrites(config, writes, task_id, task_path);
  }
  Result<std::optional<CheckpointTuple>> DoGetTuple(
      const CheckpointConfig& config) override {
    return target_->GetTuple(config);
  }
  Result<std::unique_ptr<TupleCursor>> DoList(
      const ListOptions& options) override {
    return target_->List(options);
  }
  Status DoDeleteThread(std::string_view thread_id) override {
    return target_->DeleteThread(thread_id);
  }
  Status DoDeleteForRuns(const std::vector<std::string>& run_ids) override {
    return target_->DeleteForRuns(run_ids);
  }
  Status DoCopyThread(std::string_view source,
                      std::string_view target) override {
    return target_->CopyThread(source, target);
  }
  Status DoHideCheckpoint(const CheckpointConfig& config) override {
    return target_->HideCheckpoint(config);
  }
  Status DoPrune(const std::vector<std::string>& thread_ids,
                 PruneStrategy strategy, size_t keep_last) override {
    return target_->Prune(thread_ids, strategy, keep_last);
  }
  Result<RetentionReport> DoExpire(const std::vector<std::string>& thread_ids,
                                   const ExpiryRule& rule) override {
    return target_->Expire(thread_ids, rule);
  }
  Result<DeltaHistory> DoGetDeltaChannelHistory(
      const CheckpointConfig& config,
      const std::vector<std::string>& channels) override {
    return target_->GetDeltaChannelHistory(config, channels);
  }
  Result<ThreadPage> DoListThreads(const ListThreadsOptions& options) override {
    return target_->ListThreads(options);
  }
  Status DoClose() override { return target_->Close(); }
  Maintenance* DoMaintenance() override { return target_->maintenance(); }

 private:
  std::unique_ptr<Checkpointer> owned_;  // null when borrowed.
  Checkpointer* const target_;
};

}  // namespace rockpoint
