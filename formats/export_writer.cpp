// ExportStore: the store, walked through the Checkpointer interface, as
// JSONL in (thread, namespace, checkpoint id) order.
#include <algorithm>
#include <map>
#include <set>

#include "formats/export_format.h"
#include "formats/json_text.h"
#include "formats/printable.h"

namespace rockpoint::formats {
namespace {

// The checkpoint ids of each namespace of `thread`, hidden ones included,
// ascending.
using NamespaceIds = std::map<std::string, std::vector<std::string>>;

Result<NamespaceIds> CheckpointIdsOf(Checkpointer& source,
                                     const std::string& thread) {
  ListOptions options;
  options.config = CheckpointConfig{thread, std::nullopt, std::nullopt};
  options.include_hidden = true;
  RP_ASSIGN_OR_RETURN(std::unique_ptr<TupleCursor> cursor,
                      source.List(options));
  NamespaceIds ids;
  while (true) {
    RP_ASSIGN_OR_RETURN(std::optional<CheckpointTuple> tuple, cursor->Next());
    if (!tuple) break;
    ids[tuple->config.checkpoint_ns.value_or("")].push_back(
        tuple->config.checkpoint_id.value_or(""));
  }
  for (auto& [ns, list] : ids) std::sort(list.begin(), list.end());
  return ids;
}

Result<std::vector<std::string>> AllThreadIds(Checkpointer& source) {
  std::vector<std::string> threads;
  ListThreadsOptions options;
  while (true) {
    RP_ASSIGN_OR_RETURN(ThreadPage page, source.ListThreads(options));
    for (ThreadInfo& info : page.threads) {
      threads.push_back(std::move(info.thread_id));
    }
    if (!page.next_after) break;
    options.after = page.next_after;
  }
  return threads;
}

// The tuple of one checkpoint, hidden or not.
Result<std::optional<CheckpointTuple>> ReadCheckpoint(Checkpointer& source,
                                                      const std::string& thread,
                                                      const std::string& ns,
                                                      const std::string& id) {
  ListOptions options;
  options.config = CheckpointConfig{thread, ns, id};
  options.include_hidden = true;
  RP_ASSIGN_OR_RETURN(std::unique_ptr<TupleCursor> cursor,
                      source.List(options));
  return cursor->Next();
}

void EmitLine(const Json& json, std::ostream& out) {
  out << json.dump() << '\n';
}

// Writes one namespace of one thread; `counts` accumulates.
Status ExportNamespace(Checkpointer& source, const std::string& thread,
                       const std::string& ns,
                       const std::vector<std::string>& ids, std::ostream& out,
                       ExportCounts& counts, const ProgressFn& progress) {
  std::set<std::pair<std::string, ChannelVersion>> written_values;
  for (const std::string& id : ids) {
    RP_ASSIGN_OR_RETURN(std::optional<CheckpointTuple> tuple,
                        ReadCheckpoint(source, thread, ns, id));
    if (!tuple) {
      return Status::Aborted("checkpoint disappeared during export: " + id);
    }
    const Checkpoint& checkpoint = tuple->checkpoint;
    for (const auto& [channel, value] : checkpoint.channel_values) {
      auto version = checkpoint.channel_versions.find(channel);
      if (version == checkpoint.channel_versions.end()) {
        return Status::Corruption("checkpoint " + id + " has a value for \"" +
                                  channel + "\" but no version");
      }
      if (!written_values.emplace(channel, version->second).second) continue;
      ValueLine value_line;
      value_line.thread = thread;
      value_line.ns = ns;
      value_line.channel = channel;
      value_line.version = version->second;
      value_line.value = value;
      EmitLine(ValueLineToJson(value_line, Dialect::kExport), out);
      ++counts.values;
    }
    CheckpointLine line{thread,       ns,         tuple->hidden,
                        std::nullopt, checkpoint, std::move(tuple->metadata),
                        std::nullopt};
    line.checkpoint.channel_values.clear();
    if (tuple->parent_config)
      line.parent_id = tuple->parent_config->checkpoint_id;
    EmitLine(CheckpointLineToJson(line), out);
    ++counts.checkpoints;
    for (PendingWrite& write : tuple->pending_writes) {
      EmitLine(
          WriteLineToJson({thread, ns, id, std::move(write)}, Dialect::kExport),
          out);
      ++counts.writes;
    }
    if (!out) return Status::IOError("cannot write the export (disk full?)");
    if (progress) progress(counts.checkpoints);
  }
  return Status::OK();
}

}  // namespace

Result<ExportCounts> ExportStore(Checkpointer& source,
                                 const std::vector<std::string>& threads,
                                 std::ostream& out,
                                 const ProgressFn& progress) {
  std::vector<std::string> selected = threads;
  const bool all = selected.empty();
  if (all) {
    RP_ASSIGN_OR_RETURN(selected, AllThreadIds(source));
  }
  std::sort(selected.begin(), selected.end());
  selected.erase(std::unique(selected.begin(), selected.end()), selected.end());
  // Resolve everything that can fail on bad input before writing a byte.
  std::vector<NamespaceIds> plan;
  for (const std::string& thread : selected) {
    RP_ASSIGN_OR_RETURN(NamespaceIds ids, CheckpointIdsOf(source, thread));
    if (ids.empty() && !all) {
      return Status::NotFound("thread not found: " + Printable(thread));
    }
    plan.push_back(std::move(ids));
  }
  ExportCounts counts;
  EmitLine(HeaderToJson(), out);
  for (size_t t = 0; t < selected.size(); ++t) {
    for (const auto& [ns, ids] : plan[t]) {
      RP_RETURN_IF_ERROR(
          ExportNamespace(source, selected[t], ns, ids, out, counts, progress));
    }
  }
  EmitLine(TrailerToJson(counts), out);
  out.flush();
  if (!out) return Status::IOError("cannot write the export (disk full?)");
  return counts;
}

}  // namespace rockpoint::formats
