// The Checkpointer operations over nested maps thread -> namespace ->
// {checkpoints, blobs, writes} (see memory_ops.h).
#include "engine/memory_ops.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>

#include "engine/backend_rules.h"
#include "engine/retention_rule.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint::memory {
namespace {

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
void DropEmpty(Threads& threads, Threads::iterator thread) {
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

// The namespace of (thread, ns) if it exists.
const Namespace* FindNamespace(const Threads& threads,
                               const std::string& thread_id,
                               const std::string& ns_name) {
  auto thread = threads.find(thread_id);
  if (thread == threads.end()) return nullptr;
  auto ns = thread->second.namespaces.find(ns_name);
  return ns == thread->second.namespaces.end() ? nullptr : &ns->second;
}

Namespace& NamespaceAt(Threads& threads, const NamespaceKey& where) {
  return threads[where.thread].namespaces[where.ns];
}

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

}  // namespace

PutRecord MakePutRecord(const CheckpointConfig& config,
                        const Checkpoint& checkpoint, const Metadata& metadata,
                        const ChannelVersions& new_versions) {
  PutRecord record;
  record.where = {*config.thread_id, std::string(NamespaceOf(config))};
  StoredCheckpoint& stored = record.checkpoint;
  stored.checkpoint = checkpoint;
  stored.checkpoint.channel_values.clear();
  stored.parent_id = config.checkpoint_id;
  stored.metadata = metadata;
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
    record.blobs.emplace_back(BlobKey{channel, version}, std::move(blob));
  }
  return record;
}

WritesRecord MakeWritesRecord(const CheckpointConfig& config,
                              const std::vector<ChannelWrite>& writes,
                              std::string_view task_id,
                              std::string_view task_path) {
  WritesRecord record;
  record.where = {*config.thread_id, std::string(NamespaceOf(config))};
  record.checkpoint_id = *config.checkpoint_id;
  for (size_t i = 0; i < writes.size(); ++i) {
    record.writes.emplace_back(
        WriteKey{std::string(task_path), std::string(task_id),
                 WriteIndex(writes[i].channel, i)},
        StoredWrite{writes[i].channel, writes[i].value});
  }
  return record;
}

bool InsertBlob(Threads& threads, const NamespaceKey& where, BlobKey key,
                Blob blob) {
  return NamespaceAt(threads, where)
      .blobs.emplace(std::move(key), std::move(blob))
      .second;
}

bool SetCheckpoint(Threads& threads, const NamespaceKey& where,
                   StoredCheckpoint cp) {
  std::string id = cp.checkpoint.id;
  return NamespaceAt(threads, where)
      .checkpoints.insert_or_assign(std::move(id), std::move(cp))
      .second;
}

bool InsertWrite(Threads& threads, const NamespaceKey& where,
                 const std::string& checkpoint_id, WriteKey key,
                 StoredWrite write) {
  WriteMap& stored = NamespaceAt(threads, where).writes[checkpoint_id];
  if (std::get<2>(key) < 0) {
    return stored.insert_or_assign(std::move(key), std::move(write)).second;
  }
  return stored.emplace(std::move(key), std::move(write)).second;
}

uint64_t ApplyPut(Threads& threads, PutRecord record) {
  uint64_t added = 0;
  for (auto& [key, blob] : record.blobs) {
    added += InsertBlob(threads, record.where, std::move(key), std::move(blob));
  }
  added += SetCheckpoint(threads, record.where, std::move(record.checkpoint));
  return added;
}

uint64_t ApplyWrites(Threads& threads, WritesRecord record) {
  uint64_t added = 0;
  for (auto& [key, write] : record.writes) {
    added += InsertWrite(threads, record.where, record.checkpoint_id,
                         std::move(key), std::move(write));
  }
  return added;
}

std::optional<CheckpointTuple> GetTupleIn(const Threads& threads,
                                          const CheckpointConfig& config) {
  if (!config.thread_id) return std::nullopt;
  const std::string ns_name(NamespaceOf(config));
  const Namespace* ns = FindNamespace(threads, *config.thread_id, ns_name);
  if (!ns) return std::nullopt;
  std::optional<std::string> id = config.checkpoint_id;
  if (id) {
    auto cp = ns->checkpoints.find(*id);
    if (cp == ns->checkpoints.end() || cp->second.hidden) return std::nullopt;
  } else {
    id = LatestVisibleId(*ns);
    if (!id) return std::nullopt;
  }
  return BuildTuple(*config.thread_id, ns_name, *ns, *id);
}

std::vector<CheckpointTuple> ListIn(const Threads& threads,
                                    const ListOptions& options) {
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
  std::vector<Match> matches;
  for (const auto& [thread_id, thread] : threads) {
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
  std::vector<CheckpointTuple> tuples;
  tuples.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const Match& m = matches[i];
    tuples.push_back(BuildTuple(*m.thread_id, *m.ns_name, *m.ns, *m.id));
  }
  return tuples;
}

void DeleteThreadIn(Threads& threads, std::string_view thread_id) {
  auto thread = threads.find(std::string(thread_id));
  if (thread != threads.end()) threads.erase(thread);
}

void DeleteForRunsIn(Threads& threads, const std::vector<std::string>& runs) {
  const std::set<std::string> run_set(runs.begin(), runs.end());
  if (run_set.empty()) return;
  for (auto thread = threads.begin(); thread != threads.end();) {
    auto next = std::next(thread);
    bool changed = false;
    for (auto& [ns_name, ns] : thread->second.namespaces) {
      std::set<std::string> survivors;
      bool hit = false;
      for (const auto& [id, cp] : ns.checkpoints) {
        if (cp.hidden) continue;
        if (HasRunIn(cp.metadata, run_set)) {
          hit = true;
        } else {
          survivors.insert(id);
        }
      }
      if (hit) {
        Retain(ns, survivors);
        changed = true;
      }
    }
    if (changed) DropEmpty(threads, thread);
    thread = next;
  }
}

Status CopyThreadIn(Threads& threads, std::string_view source,
                    std::string_view target) {
  if (auto to = threads.find(std::string(target));
      to != threads.end() && HasCheckpoints(to->second)) {
    return CopyTargetNotEmpty(target);
  }
  auto from = threads.find(std::string(source));
  if (from == threads.end()) return Status::OK();
  // The target holds no checkpoint; what else it may hold (writes put on a
  // checkpoint id that was never stored) gives way to the source's.
  Thread copy = from->second;
  Thread& to = threads[std::string(target)];
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

Status HideCheckpointIn(Threads& threads, const CheckpointConfig& config) {
  auto thread = threads.find(*config.thread_id);
  if (thread == threads.end()) return CheckpointToHideNotFound(config);
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

void PruneIn(Threads& threads, const std::vector<std::string>& thread_ids,
             PruneStrategy strategy, size_t keep_last) {
  for (const std::string& thread_id : thread_ids) {
    auto thread = threads.find(thread_id);
    if (thread == threads.end()) continue;
    if (strategy == PruneStrategy::kDelete) {
      threads.erase(thread);
      continue;
    }
    for (auto& [ns_name, ns] : thread->second.namespaces) {
      std::set<std::string> visible = VisibleIds(ns);
      while (visible.size() > keep_last) visible.erase(visible.begin());
      Retain(ns, visible);
    }
    DropEmpty(threads, thread);
  }
}

namespace {

// The bytes ExpireIn counts for `ns`: values, writes, metadata.
uint64_t StoredBytes(const Namespace& ns) {
  uint64_t bytes = 0;
  for (const auto& [id, cp] : ns.checkpoints) {
    bytes += id.size() + serde::EncodeMsgpack(cp.metadata).size();
  }
  for (const auto& [key, blob] : ns.blobs) bytes += blob.value.bytes.size();
  for (const auto& [id, writes] : ns.writes) {
    for (const auto& [key, write] : writes) bytes += write.value.bytes.size();
  }
  return bytes;
}

// A checkpoint's ts when it is visible.
std::optional<std::string_view> VisibleTs(const StoredCheckpoint& cp) {
  if (cp.hidden) return std::nullopt;
  return cp.checkpoint.ts;
}

// Plans `rule` over `thread` (named `thread_id`).
RetentionReport PlanThread(const std::string& thread_id, const Thread& thread,
                           const ExpiryRule& rule, std::vector<Expired>* plan) {
  RetentionReport report;
  std::vector<std::vector<AgedCheckpoint>> aged;
  for (const auto& [name, ns] : thread.namespaces) {
    aged.push_back(VisibleNewestFirst(ns.checkpoints, VisibleTs));
  }
  const std::vector<NamespaceExpiry> decided =
      PlanThreadExpiry(aged, rule, report);
  size_t i = 0;
  for (const auto& [name, ns] : thread.namespaces) {
    const NamespaceExpiry& expiry = decided[i++];
    if (expiry.expired.empty()) continue;
    Namespace after = ns;
    Retain(after, expiry.survivors);
    for (const std::string& id : expiry.expired) {
      if (after.checkpoints.contains(id)) ++report.checkpoints_hidden;
    }
    report.bytes += StoredBytes(ns) - StoredBytes(after);
    plan->push_back(Expired{{thread_id, name},
                            {expiry.expired.begin(), expiry.expired.end()}});
  }
  return report;
}

}  // namespace

RetentionReport PlanExpiry(const Threads& threads,
                           const std::vector<std::string>& thread_ids,
                           const ExpiryRule& rule, std::vector<Expired>* plan) {
  RetentionReport report;
  const std::set<std::string> unique(thread_ids.begin(), thread_ids.end());
  for (const std::string& thread_id : unique) {
    auto thread = threads.find(thread_id);
    if (thread == threads.end()) continue;
    report += PlanThread(thread_id, thread->second, rule, plan);
  }
  return report;
}

void ApplyExpired(Threads& threads, const Expired& expired) {
  auto thread = threads.find(expired.where.thread);
  if (thread == threads.end()) return;
  auto ns = thread->second.namespaces.find(expired.where.ns);
  if (ns == thread->second.namespaces.end()) return;
  std::set<std::string> survivors = VisibleIds(ns->second);
  for (const std::string& id : expired.ids) survivors.erase(id);
  Retain(ns->second, survivors);
  DropEmpty(threads, thread);
}

Result<DeltaHistory> DeltaHistoryIn(const Threads& threads,
                                    const CheckpointConfig& config,
                                    const std::vector<std::string>& channels) {
  if (channels.empty()) return DeltaHistory{};
  const Namespace* ns = FindNamespace(threads, *config.thread_id,
                                      std::string(NamespaceOf(config)));
  std::optional<std::string> target;
  if (ns && config.checkpoint_id) {
    auto cp = ns->checkpoints.find(*config.checkpoint_id);
    if (cp != ns->checkpoints.end() && !cp->second.hidden) target = cp->first;
  } else if (ns) {
    target = LatestVisibleId(*ns);
  }
  if (!target) {
    return Status::NotFound(
        config.checkpoint_id
            ? "checkpoint given by config.checkpoint_id does not exist"
            : "the thread and namespace of config have no checkpoint");
  }
  return DeltaHistoryOf(*ns, *target, channels);
}

ThreadPage ListThreadsIn(const Threads& threads,
                         const ListThreadsOptions& options) {
  ThreadPage page;
  auto thread =
      options.after ? threads.upper_bound(*options.after) : threads.begin();
  for (; thread != threads.end(); ++thread) {
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

std::unique_ptr<TupleCursor> MakeSnapshotCursor(
    std::vector<CheckpointTuple> tuples) {
  return std::make_unique<SnapshotCursor>(std::move(tuples));
}

std::vector<WriteLocation> FindOrphanWrites(const Threads& threads) {
  std::vector<WriteLocation> orphans;
  for (const auto& [thread_id, thread] : threads) {
    for (const auto& [ns_name, ns] : thread.namespaces) {
      for (const auto& [checkpoint_id, writes] : ns.writes) {
        if (ns.checkpoints.contains(checkpoint_id)) continue;
        for (const auto& [key, write] : writes) {
          const auto& [task_path, task_id, idx] = key;
          orphans.push_back(
              {thread_id, ns_name, checkpoint_id, task_path, task_id, idx});
        }
      }
    }
  }
  return orphans;
}

}  // namespace rockpoint::memory
