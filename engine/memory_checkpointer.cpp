// MemoryCheckpointer: the plain reading of docs/CONTRACT.md over nested maps
// thread -> namespace -> {checkpoints, blobs, writes}, behind one mutex.
#include "rockpoint/memory_checkpointer.h"

#include <algorithm>
#include <set>
#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/memory_store.h"
#include "engine/validation.h"

namespace rockpoint {

using memory::Blob;
using memory::BlobKey;
using memory::Namespace;
using memory::StoredCheckpoint;
using memory::StoredWrite;
using memory::Thread;
using memory::WriteKey;

struct MemoryCheckpointer::State {
  base::Mutex mu;
  bool closed GUARDED_BY(mu) = false;
  std::map<std::string, Thread> threads GUARDED_BY(mu);  // by thread_id.

  // Aborted once the store is closed.
  Status CheckOpen() const REQUIRES(mu) {
    return closed ? StoreClosedError() : Status::OK();
  }
};

namespace {

// A cursor over tuples materialized when List was called.
class SnapshotCursor final : public TupleCursor {
 public:
  explicit SnapshotCursor(std::vector<CheckpointTuple> tuples)
      : tuples_(std::move(tuples)) {}
  Result<std::optional<CheckpointTuple>> Next() override {
    if (next_ >= tuples_.size()) return std::optional<CheckpointTuple>();
    return std::optional<CheckpointTuple>(std::move(tuples_[next_++]));
  }

 private:
  std::vector<CheckpointTuple> tuples_;
  size_t next_ = 0;
};

// The visible checkpoint ids of `ns`.
std::set<std::string> VisibleIds(const Namespace& ns) {
  std::set<std::string> ids;
  for (const auto& [id, cp] : ns.checkpoints) {
    if (!cp.hidden) ids.insert(id);
  }
  return ids;
}

// True if metadata.run_id is a string in `runs` (an absent run_id matches
// nothing, not even "").
bool HasRunIn(const Metadata& metadata, const std::set<std::string>& runs) {
  if (!metadata.is_map()) return false;
  auto run = metadata.as_map().find("run_id");
  return run != metadata.as_map().end() && run->second.is_string() &&
         runs.count(run->second.as_string()) > 0;
}

// Drops namespaces left empty, then the thread if it has none.
void DropEmpty(std::map<std::string, Thread>& threads,
               std::map<std::string, Thread>::iterator thread) {
  auto& namespaces = thread->second.namespaces;
  for (auto ns = namespaces.begin(); ns != namespaces.end();) {
    ns = ns->second.empty() ? namespaces.erase(ns) : std::next(ns);
  }
  if (namespaces.empty()) threads.erase(thread);
}

// True if any namespace of `thread` holds a checkpoint, hidden or not.
bool HasCheckpoints(const Thread& thread) {
  for (const auto& [name, ns] : thread.namespaces) {
    if (!ns.checkpoints.empty()) return true;
  }
  return false;
}

}  // namespace

MemoryCheckpointer::MemoryCheckpointer(CheckpointerLimits limits)
    : limits_(limits), state_(std::make_unique<State>()) {}

MemoryCheckpointer::~MemoryCheckpointer() = default;

Status MemoryCheckpointer::Close() {
  base::MutexLock lock(&state_->mu);
  state_->closed = true;
  state_->threads.clear();
  return Status::OK();
}

Result<CheckpointConfig> MemoryCheckpointer::Put(
    const CheckpointConfig& config, const Checkpoint& checkpoint,
    const Metadata& metadata, const ChannelVersions& new_versions) {
  RP_RETURN_IF_ERROR(
      ValidatePut(config, checkpoint, metadata, new_versions, limits_));
  const std::string ns_name(NamespaceOf(config));
  StoredCheckpoint stored;
  stored.checkpoint = checkpoint;
  stored.checkpoint.channel_values.clear();
  stored.parent_id = config.checkpoint_id;
  stored.metadata = metadata;

  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  Namespace& ns = state_->threads[*config.thread_id].namespaces[ns_name];
  for (const auto& [channel, version] : new_versions) {
    auto value = checkpoint.channel_values.find(channel);
    Blob blob;
    if (value == checkpoint.channel_values.end()) {
      blob.empty = true;
    } else {
      blob.value = value->second;
      if (StoresValueItNames(checkpoint, channel, version)) {
        stored.stored_channels.insert(channel);
      }
    }
    ns.blobs.emplace(BlobKey{channel, version}, std::move(blob));
  }
  ns.checkpoints[checkpoint.id] = std::move(stored);
  return CheckpointConfig{*config.thread_id, ns_name, checkpoint.id};
}

Status MemoryCheckpointer::PutWrites(const CheckpointConfig& config,
                                     const std::vector<ChannelWrite>& writes,
                                     std::string_view task_id,
                                     std::string_view task_path) {
  RP_RETURN_IF_ERROR(
      ValidatePutWrites(config, writes, task_id, task_path, limits_));
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  Namespace& ns = state_->threads[*config.thread_id]
                      .namespaces[std::string(NamespaceOf(config))];
  memory::WriteMap& stored = ns.writes[*config.checkpoint_id];
  for (size_t i = 0; i < writes.size(); ++i) {
    int64_t idx = WriteIndex(writes[i].channel, i);
    WriteKey key{std::string(task_path), std::string(task_id), idx};
    StoredWrite write{writes[i].channel, writes[i].value};
    if (idx < 0) {
      stored.insert_or_assign(std::move(key), std::move(write));
    } else {
      stored.emplace(std::move(key), std::move(write));
    }
  }
  return Status::OK();
}

Result<std::optional<CheckpointTuple>> MemoryCheckpointer::GetTuple(
    const CheckpointConfig& config) {
  const std::string ns_name(NamespaceOf(config));
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  if (!config.thread_id) return std::optional<CheckpointTuple>();
  auto thread = state_->threads.find(*config.thread_id);
  if (thread == state_->threads.end()) return std::optional<CheckpointTuple>();
  auto ns = thread->second.namespaces.find(ns_name);
  if (ns == thread->second.namespaces.end()) {
    return std::optional<CheckpointTuple>();
  }
  std::optional<std::string> id = config.checkpoint_id;
  if (id) {
    auto cp = ns->second.checkpoints.find(*id);
    if (cp == ns->second.checkpoints.end() || cp->second.hidden) {
      return std::optional<CheckpointTuple>();
    }
  } else {
    id = memory::LatestVisibleId(ns->second);
    if (!id) return std::optional<CheckpointTuple>();
  }
  return std::optional<CheckpointTuple>(
      memory::BuildTuple(thread->first, ns_name, ns->second, *id));
}

Result<std::unique_ptr<TupleCursor>> MemoryCheckpointer::List(
    const ListOptions& options) {
  RP_RETURN_IF_ERROR(ValidateListOptions(options));
  const CheckpointConfig* config = options.config ? &*options.config : nullptr;
  const bool one_thread = config && config->thread_id;
  const bool one_ns = config && config->checkpoint_ns;
  const bool one_id = config && config->checkpoint_id;
  // Select and order first, then build only the tuples within the limit:
  // values and writes are copied for what is returned, not for every match.
  struct Match {
    const std::string* id;
    const std::string* thread_id;
    const std::string* ns_name;
    const Namespace* ns;
  };
  std::vector<CheckpointTuple> tuples;
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  std::vector<Match> matches;
  for (const auto& [thread_id, thread] : state_->threads) {
    if (one_thread && thread_id != *config->thread_id) continue;
    for (const auto& [ns_name, ns] : thread.namespaces) {
      if (one_ns && ns_name != *config->checkpoint_ns) continue;
      auto [first, last] =
          one_id ? ns.checkpoints.equal_range(*config->checkpoint_id)
                 : std::pair(ns.checkpoints.begin(), ns.checkpoints.end());
      for (auto it = first; it != last; ++it) {
        const auto& [id, cp] = *it;
        if (cp.hidden && !options.include_hidden) continue;
        if (options.before && !(id < *options.before->checkpoint_id)) {
          continue;
        }
        if (!MetadataMatches(cp.metadata, options.filter)) continue;
        matches.push_back({&id, &thread_id, &ns_name, &ns});
      }
    }
  }
  // Newest first across threads; equal ids by thread then namespace, also
  // descending.
  const auto newer = [](const Match& a, const Match& b) {
    return std::tie(*a.id, *a.thread_id, *a.ns_name) >
           std::tie(*b.id, *b.thread_id, *b.ns_name);
  };
  const size_t count =
      options.limit ? std::min(*options.limit, matches.size()) : matches.size();
  std::partial_sort(matches.begin(), matches.begin() + count, matches.end(),
                    newer);
  tuples.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const Match& m = matches[i];
    tuples.push_back(
        memory::BuildTuple(*m.thread_id, *m.ns_name, *m.ns, *m.id));
  }
  return std::unique_ptr<TupleCursor>(
      std::make_unique<SnapshotCursor>(std::move(tuples)));
}

Status MemoryCheckpointer::DeleteThread(std::string_view thread_id) {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  auto thread = state_->threads.find(std::string(thread_id));
  if (thread != state_->threads.end()) state_->threads.erase(thread);
  return Status::OK();
}

Status MemoryCheckpointer::DeleteForRuns(
    const std::vector<std::string>& run_ids) {
  const std::set<std::string> runs(run_ids.begin(), run_ids.end());
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  if (runs.empty()) return Status::OK();
  for (auto thread = state_->threads.begin();
       thread != state_->threads.end();) {
    auto next = std::next(thread);
    bool changed = false;
    for (auto& [ns_name, ns] : thread->second.namespaces) {
      std::set<std::string> survivors;
      bool hit = false;
      for (const auto& [id, cp] : ns.checkpoints) {
        if (cp.hidden) continue;
        if (HasRunIn(cp.metadata, runs)) {
          hit = true;
        } else {
          survivors.insert(id);
        }
      }
      if (hit) {
        memory::Retain(ns, survivors);
        changed = true;
      }
    }
    if (changed) DropEmpty(state_->threads, thread);
    thread = next;
  }
  return Status::OK();
}

Status MemoryCheckpointer::CopyThread(std::string_view source,
                                      std::string_view target) {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  if (auto to = state_->threads.find(std::string(target));
      to != state_->threads.end() && HasCheckpoints(to->second)) {
    return CopyTargetNotEmpty(target);
  }
  auto from = state_->threads.find(std::string(source));
  if (from == state_->threads.end()) return Status::OK();
  // The target holds no checkpoint; what else it may hold (writes put on a
  // checkpoint id that was never stored) gives way to the source's.
  Thread copy = from->second;
  Thread& to = state_->threads[std::string(target)];
  for (auto& [ns_name, ns] : copy.namespaces) {
    Namespace& dest = to.namespaces[ns_name];
    for (auto& [id, cp] : ns.checkpoints) {
      dest.checkpoints.insert_or_assign(id, std::move(cp));
    }
    for (auto& [key, blob] : ns.blobs) {
      dest.blobs.insert_or_assign(key, std::move(blob));
    }
    for (auto& [id, writes] : ns.writes) {
      dest.writes.insert_or_assign(id, std::move(writes));
    }
  }
  return Status::OK();
}

Status MemoryCheckpointer::HideCheckpoint(const CheckpointConfig& config) {
  RP_RETURN_IF_ERROR(ValidateHideCheckpoint(config, limits_));
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  auto thread = state_->threads.find(*config.thread_id);
  if (thread == state_->threads.end()) return CheckpointToHideNotFound(config);
  auto ns = thread->second.namespaces.find(std::string(NamespaceOf(config)));
  if (ns == thread->second.namespaces.end()) {
    return CheckpointToHideNotFound(config);
  }
  auto cp = ns->second.checkpoints.find(*config.checkpoint_id);
  if (cp == ns->second.checkpoints.end()) {
    return CheckpointToHideNotFound(config);
  }
  cp->second.hidden = true;
  return Status::OK();
}

Status MemoryCheckpointer::Prune(const std::vector<std::string>& thread_ids,
                                 PruneStrategy strategy, size_t keep_last) {
  RP_RETURN_IF_ERROR(ValidatePrune(strategy, keep_last));
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  for (const std::string& thread_id : thread_ids) {
    auto thread = state_->threads.find(thread_id);
    if (thread == state_->threads.end()) continue;
    if (strategy == PruneStrategy::kDelete) {
      state_->threads.erase(thread);
      continue;
    }
    for (auto& [ns_name, ns] : thread->second.namespaces) {
      std::set<std::string> visible = VisibleIds(ns);
      while (visible.size() > keep_last) visible.erase(visible.begin());
      memory::Retain(ns, visible);
    }
    DropEmpty(state_->threads, thread);
  }
  return Status::OK();
}

Result<DeltaHistory> MemoryCheckpointer::GetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  if (!config.thread_id) {
    return Status::InvalidArgument("config.thread_id is missing");
  }
  const std::string ns_name(NamespaceOf(config));
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  if (channels.empty()) return DeltaHistory{};
  const Namespace* ns = nullptr;
  if (auto thread = state_->threads.find(*config.thread_id);
      thread != state_->threads.end()) {
    auto found = thread->second.namespaces.find(ns_name);
    if (found != thread->second.namespaces.end()) ns = &found->second;
  }
  std::optional<std::string> target;
  if (ns && config.checkpoint_id) {
    auto cp = ns->checkpoints.find(*config.checkpoint_id);
    if (cp != ns->checkpoints.end() && !cp->second.hidden) target = cp->first;
  } else if (ns) {
    target = memory::LatestVisibleId(*ns);
  }
  if (!target) {
    return Status::NotFound(
        config.checkpoint_id
            ? "checkpoint given by config.checkpoint_id does not exist"
            : "the thread and namespace of config have no checkpoint");
  }
  return memory::DeltaHistoryOf(*ns, *target, channels);
}

Result<ThreadPage> MemoryCheckpointer::ListThreads(
    const ListThreadsOptions& options) {
  if (options.limit == 0) {
    return Status::InvalidArgument("limit must be >= 1, got 0");
  }
  ThreadPage page;
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  auto thread = options.after ? state_->threads.upper_bound(*options.after)
                              : state_->threads.begin();
  for (; thread != state_->threads.end(); ++thread) {
    ThreadInfo info{thread->first, {}};
    for (const auto& [ns_name, ns] : thread->second.namespaces) {
      NamespaceInfo ns_info{ns_name, 0, "", ""};
      for (const auto& [id, cp] : ns.checkpoints) {
        if (cp.hidden) continue;
        ++ns_info.checkpoint_count;
        ns_info.latest_checkpoint_id = id;
        ns_info.latest_ts = cp.checkpoint.ts;
      }
      if (ns_info.checkpoint_count > 0) {
        info.namespaces.push_back(std::move(ns_info));
      }
    }
    if (info.namespaces.empty()) continue;
    if (page.threads.size() == options.limit) {
      page.next_after = page.threads.back().thread_id;
      break;
    }
    page.threads.push_back(std::move(info));
  }
  return page;
}

}  // namespace rockpoint
