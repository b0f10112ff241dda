// `stats`: how big the store is and how well it stores: threads,
// checkpoints, values referenced against values stored (deduplication),
// writes; for RocksDB also bytes per column family, compression ratio and
// write amplification; for JSONL the journal's bytes and lines, live and
// not; with retention flags, what that policy would reclaim (a dry run).
#include <algorithm>
#include <filesystem>
#include <set>
#include <tuple>

#include "formats/json_text.h"
#include "rockpoint/maintenance.h"
#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"
#include "tools/cli/progress.h"
#include "tools/cli/retention_flags.h"

namespace rockpoint::cli {
namespace {

formats::Json Ratio(uint64_t numerator, uint64_t denominator) {
  if (denominator == 0) return formats::Json();
  return static_cast<double>(
             static_cast<int64_t>(1000.0 * static_cast<double>(numerator) /
                                  static_cast<double>(denominator))) /
         1000.0;
}

uint64_t PathBytes(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  uint64_t total = 0;
  if (fs::is_directory(path, error)) {
    for (const auto& entry : fs::recursive_directory_iterator(path, error)) {
      if (entry.is_regular_file(error)) total += entry.file_size(error);
    }
    return total;
  }
  for (const std::string& file : {path, path + "-wal", path + "-shm"}) {
    if (fs::is_regular_file(file, error)) total += fs::file_size(file, error);
  }
  return total;
}

// Figures read through the Checkpointer interface (every backend).
Status AddLogicalFigures(Checkpointer& store, formats::Json& doc) {
  RP_ASSIGN_OR_RETURN(std::vector<ThreadInfo> threads, store.ListAllThreads());
  uint64_t namespaces = 0;
  for (const ThreadInfo& thread : threads)
    namespaces += thread.namespaces.size();
  doc["threads"] = threads.size();
  doc["namespaces"] = namespaces;

  Progress progress("reading checkpoints");
  std::set<std::tuple<std::string, std::string, std::string, ChannelVersion>>
      distinct;
  uint64_t checkpoints = 0, references = 0, referenced_bytes = 0,
           stored_bytes = 0, writes = 0, write_bytes = 0;
  RP_ASSIGN_OR_RETURN(std::unique_ptr<TupleCursor> cursor,
                      store.List(ListOptions{}));
  while (true) {
    RP_ASSIGN_OR_RETURN(std::optional<CheckpointTuple> tuple, cursor->Next());
    if (!tuple) break;
    ++checkpoints;
    const Checkpoint& checkpoint = tuple->checkpoint;
    for (const auto& [channel, value] : checkpoint.channel_values) {
      ++references;
      referenced_bytes += value.bytes.size();
      auto version = checkpoint.channel_versions.find(channel);
      if (version == checkpoint.channel_versions.end()) continue;
      const bool added = distinct
                             .emplace(*tuple->config.thread_id,
                                      tuple->config.checkpoint_ns.value_or(""),
                                      channel, version->second)
                             .second;
      if (added) stored_bytes += value.bytes.size();
    }
    for (const PendingWrite& write : tuple->pending_writes) {
      ++writes;
      write_bytes += write.value.bytes.size();
    }
    progress.Update(checkpoints);
  }
  doc["checkpoints"] = checkpoints;
  doc["values_referenced"] = references;
  doc["values_stored"] = distinct.size();
  doc["values_deduplicated"] = references - distinct.size();
  doc["value_bytes_referenced"] = referenced_bytes;
  doc["value_bytes_stored"] = stored_bytes;
  doc["deduplication_ratio"] = Ratio(referenced_bytes, stored_bytes);
  doc["writes"] = writes;
  doc["write_bytes"] = write_bytes;
  return Status::OK();
}

void AddRocksDbFigures(const StoreFigures& figures, formats::Json& doc) {
  doc["hidden_checkpoints"] = figures.hidden_checkpoints.value_or(0);
  const StoreStats& stats = *figures.rocksdb;
  const std::vector<TableFigures>& tables = figures.rocksdb_tables;
  doc["disk_bytes"] = stats.total_disk_bytes;
  // The store counts bytes written since it was opened, so this is the
  // amplification of the writes this process made (none for stats).
  doc["write_amplification"] =
      Ratio(stats.bytes_written + stats.compaction_bytes_written,
            stats.bytes_written);
  uint64_t raw = 0, stored = 0;
  formats::Json families = formats::Json::array();
  for (const ColumnFamilyStats& family : stats.column_families) {
    formats::Json row = formats::Json::object();
    row["column_family"] = family.name;
    row["sst_bytes"] = family.live_sst_bytes;
    row["blob_file_bytes"] = family.blob_file_bytes;
    row["estimated_keys"] = family.estimated_keys;
    for (const TableFigures& table : tables) {
      if (table.column_family != family.name) continue;
      const uint64_t family_raw = table.raw_key_bytes + table.raw_value_bytes;
      row["sst_files"] = table.sst_files;
      row["raw_bytes"] = family_raw;
      row["compression_ratio"] = Ratio(family_raw, table.data_bytes);
      raw += family_raw;
      stored += table.data_bytes;
    }
    families.push_back(std::move(row));
  }
  doc["compression_ratio"] = Ratio(raw, stored);
  doc["column_families"] = std::move(families);
}

// The journal: its bytes, its format version, its lines, the lines a
// compaction would keep, and a torn tail found when it was opened (ignored
// by reads) and what of it the open cut off.
void AddJsonlFigures(const JsonlStats& stats, formats::Json& doc) {
  doc["disk_bytes"] = stats.file_bytes;
  doc["journal_version"] = stats.format_version;
  doc["journal_lines"] = stats.lines;
  doc["journal_live_lines"] = stats.live_lines;
  doc["journal_dead_lines"] =
      stats.lines - std::min(stats.lines, stats.live_lines);
  doc["torn_tail_bytes"] = stats.torn_tail_bytes;
  doc["torn_tail_bytes_cut"] = stats.torn_tail_bytes_cut;
}

class StatsCommand final : public Command {
 public:
  const char* name() const override { return "stats"; }
  const char* help() const override {
    return "Store figures: threads, checkpoints, deduplicated values, "
           "writes; RocksDB: bytes per column family, compression ratio, "
           "write amplification (of this process's writes); JSONL: journal "
           "bytes, lines and live lines; with --older-than, --idle or "
           "--keep: what that retention policy would reclaim";
  }
  Access access() const override { return Access::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_flag("--quick", quick_,
                 "Skip the figures that read every checkpoint");
    retention_.AddTo(app, /*with_keep=*/true);
  }

  Result<int> Run(Context& context) override {
    Store& store = *context.store;
    formats::Json doc = formats::Json::object();
    doc["backend"] = BackendName(store.backend());
    doc["path"] = store.path();
    if (quick_) {
      RP_ASSIGN_OR_RETURN(std::vector<ThreadInfo> threads,
                          store.checkpointer().ListAllThreads());
      uint64_t checkpoints = 0;
      for (const ThreadInfo& thread : threads) {
        for (const NamespaceInfo& ns : thread.namespaces) {
          checkpoints += ns.checkpoint_count;
        }
      }
      doc["threads"] = threads.size();
      doc["checkpoints"] = checkpoints;
    } else {
      RP_RETURN_IF_ERROR(AddLogicalFigures(store.checkpointer(), doc));
    }
    const Result<StoreFigures> figures = Figures(store.checkpointer());
    if (!figures.ok() && !figures.status().IsNotSupported()) {
      return figures.status();
    }
    if (figures.ok() && figures->rocksdb) {
      AddRocksDbFigures(*figures, doc);
    } else if (figures.ok() && figures->jsonl) {
      AddJsonlFigures(*figures->jsonl, doc);
    } else {
      doc["disk_bytes"] = PathBytes(store.path());
    }
    if (retention_.any()) {
      RP_ASSIGN_OR_RETURN(const RetentionPolicy policy, retention_.Policy());
      RP_ASSIGN_OR_RETURN(const RetentionTime now, retention_.Now());
      RP_ASSIGN_OR_RETURN(
          const RetentionReport reclaimable,
          store.checkpointer().Sweep(policy, now, /*dry_run=*/true));
      doc["reclaimable"] = RetentionReportJson(reclaimable, true);
    }
    context.Print(Output::Document(std::move(doc)));
    return kExitOk;
  }

 private:
  bool quick_ = false;
  RetentionFlags retention_;
};

}  // namespace

std::unique_ptr<Command> MakeStatsCommand() {
  return std::make_unique<StatsCommand>();
}

}  // namespace rockpoint::cli
