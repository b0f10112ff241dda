#include "bench/storage_growth.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/conversation.h"
#include "bench/measure.h"
#include "rockpoint/maintenance.h"
#include "rockpoint/open.h"

namespace rockpoint::bench {
namespace {

namespace fs = std::filesystem;

struct IoCounters {
  uint64_t write_bytes = 0;
  uint64_t wchar = 0;
};

// This process's I/O counters (all threads, RocksDB's background ones
// included); zeros where /proc is unavailable.
IoCounters ReadIoCounters() {
  IoCounters counters;
  std::ifstream in("/proc/self/io");
  std::string name;
  uint64_t value = 0;
  while (in >> name >> value) {
    if (name == "write_bytes:") counters.write_bytes = value;
    if (name == "wchar:") counters.wchar = value;
  }
  return counters;
}

uint64_t DirectoryBytes(const fs::path& dir) {
  uint64_t total = 0;
  std::error_code error;
  for (const auto& entry : fs::recursive_directory_iterator(dir, error)) {
    std::error_code size_error;
    if (entry.is_regular_file(size_error)) {
      const uint64_t size = entry.file_size(size_error);
      if (!size_error) total += size;
    }
  }
  return total;
}

// Loads the latest state `repetitions` times (after one untimed load that
// also checks the message count).
Status TimeLoads(Checkpointer& store, size_t turns, size_t repetitions,
                 GrowthRow* row) {
  RP_ASSIGN_OR_RETURN(serde::Value::Array messages,
                      LoadConversation(store, "conversation"));
  if (messages.size() != turns) {
    return Status::Corruption("bench: loaded " +
                              std::to_string(messages.size()) +
                              " messages, expected " + std::to_string(turns));
  }
  std::vector<double> samples;
  for (size_t i = 0; i < repetitions; ++i) {
    Stopwatch watch;
    RP_RETURN_IF_ERROR(LoadConversation(store, "conversation").status());
    samples.push_back(watch.ElapsedMicros());
  }
  row->load_median_us = Quantile(samples, 0.5);
  row->load_p99_us = Quantile(samples, 0.99);
  return Status::OK();
}

// The RocksDB figures of `store`.
Result<StoreStats> RocksDbStats(Checkpointer& store) {
  RP_ASSIGN_OR_RETURN(StoreFigures figures, Figures(store));
  if (!figures.rocksdb) {
    return Status::InvalidArgument("bench: not a RocksDB store");
  }
  return std::move(*figures.rocksdb);
}

Status MeasureRocksDb(const BenchOptions& options, Scratch& scratch,
                      const ConversationSpec& spec, GrowthRow* row) {
  RP_ASSIGN_OR_RETURN(const std::string dir, scratch.NewDirectory(row->mode));
  StoreOptions unsynced;
  unsynced.sync_writes = false;
  RP_ASSIGN_OR_RETURN(auto store, Open("rocksdb:" + dir, unsynced));
  const IoCounters before = ReadIoCounters();  // after the open's own files.
  ConversationStats stats;
  RP_RETURN_IF_ERROR(WriteConversation(*store, spec, &row->user_bytes, &stats));
  row->snapshots = stats.snapshots;
  row->replay_writes = stats.replay_writes;
  RP_RETURN_IF_ERROR(Compact(*store));
  const IoCounters after = ReadIoCounters();
  row->io_write_bytes = after.write_bytes - before.write_bytes;
  row->syscall_write_bytes = after.wchar - before.wchar;
  RP_ASSIGN_OR_RETURN(const StoreStats store_stats, RocksDbStats(*store));
  for (const ColumnFamilyStats& family : store_stats.column_families) {
    row->live_bytes += family.live_sst_bytes + family.blob_file_bytes;
  }
  row->disk_bytes = store_stats.total_disk_bytes;
  RP_RETURN_IF_ERROR(
      TimeLoads(*store, spec.turns, options.load_repetitions, row));
  store.reset();
  std::error_code error;
  fs::remove_all(dir, error);
  return Status::OK();
}

Status MeasureSqlite(const BenchOptions& options, Scratch& scratch,
                     const ConversationSpec& spec, GrowthRow* row) {
  RP_ASSIGN_OR_RETURN(const std::string dir, scratch.NewDirectory(row->mode));
  const std::string path = (fs::path(dir) / "store.db").string();
  StoreOptions unsynced;
  unsynced.sync_writes = false;
  {
    RP_ASSIGN_OR_RETURN(auto store, Open("sqlite:" + path, unsynced));
    const IoCounters before = ReadIoCounters();  // after the schema.
    ConversationStats stats;
    RP_RETURN_IF_ERROR(
        WriteConversation(*store, spec, &row->user_bytes, &stats));
    row->snapshots = stats.snapshots;
    row->replay_writes = stats.replay_writes;
    store.reset();  // closing checkpoints the WAL into the database file.
    const IoCounters after = ReadIoCounters();
    row->io_write_bytes = after.write_bytes - before.write_bytes;
    row->syscall_write_bytes = after.wchar - before.wchar;
  }
  std::error_code error;
  row->live_bytes = fs::file_size(path, error);
  if (error) return Status::IOError("bench: size of " + path);
  row->disk_bytes = DirectoryBytes(dir);
  {
    RP_ASSIGN_OR_RETURN(auto store, Open("sqlite:" + path, unsynced));
    RP_RETURN_IF_ERROR(
        TimeLoads(*store, spec.turns, options.load_repetitions, row));
  }
  fs::remove_all(dir, error);
  return Status::OK();
}

// The journal after Compact() (a snapshot of the live state) and Close (which
// syncs it): the journal file (live_bytes) and every file of the directory
// (disk_bytes); loads from a reopened journal (replayed into memory).
Status MeasureJsonl(const BenchOptions& options, Scratch& scratch,
                    const ConversationSpec& spec, GrowthRow* row) {
  RP_ASSIGN_OR_RETURN(const std::string dir, scratch.NewDirectory(row->mode));
  const std::string path = (fs::path(dir) / "store.jsonl").string();
  StoreOptions unsynced;
  unsynced.sync_writes = false;
  {
    RP_ASSIGN_OR_RETURN(auto store, Open("jsonl:" + path, unsynced));
    const IoCounters before = ReadIoCounters();  // after the header line.
    ConversationStats stats;
    RP_RETURN_IF_ERROR(
        WriteConversation(*store, spec, &row->user_bytes, &stats));
    row->snapshots = stats.snapshots;
    row->replay_writes = stats.replay_writes;
    RP_RETURN_IF_ERROR(Compact(*store));
    RP_RETURN_IF_ERROR(store->Close());
    const IoCounters after = ReadIoCounters();
    row->io_write_bytes = after.write_bytes - before.write_bytes;
    row->syscall_write_bytes = after.wchar - before.wchar;
  }
  std::error_code error;
  row->live_bytes = fs::file_size(path, error);
  if (error) return Status::IOError("bench: size of " + path);
  row->disk_bytes = DirectoryBytes(dir);
  {
    RP_ASSIGN_OR_RETURN(auto store, Open("jsonl:" + path, unsynced));
    RP_RETURN_IF_ERROR(
        TimeLoads(*store, spec.turns, options.load_repetitions, row));
  }
  fs::remove_all(dir, error);
  return Status::OK();
}

// Measures `row` on `backend` (kRockpoint, kSqlite or kJsonl).
Status MeasureMode(std::string_view backend, const BenchOptions& options,
                   Scratch& scratch, const ConversationSpec& spec,
                   GrowthRow* row) {
  if (backend == kSqlite) return MeasureSqlite(options, scratch, spec, row);
  if (backend == kJsonl) return MeasureJsonl(options, scratch, spec, row);
  return MeasureRocksDb(options, scratch, spec, row);
}

}  // namespace

double GrowthRow::write_amplification() const {
  const uint64_t written =
      io_write_bytes > 0 ? io_write_bytes : syscall_write_bytes;
  return user_bytes > 0 ? static_cast<double>(written) / user_bytes : 0;
}

double GrowthRow::live_to_user() const {
  return user_bytes > 0 ? static_cast<double>(live_bytes) / user_bytes : 0;
}

std::string GeometricModeName(double ratio) {
  if (ratio == 1.0) return "delta-geo-rocksdb";
  char name[64];
  std::snprintf(name, sizeof(name), "delta-geo%g-rocksdb", ratio);
  return name;
}

std::string GrowthCsv(const std::vector<GrowthRow>& rows) {
  std::ostringstream out;
  out << "mode,backend,snapshot_every,turns,message_bytes,user_bytes,"
         "live_bytes,disk_bytes,io_write_bytes,syscall_write_bytes,"
         "write_amplification,live_to_user,load_median_us,load_p99_us\n";
  for (const GrowthRow& row : rows) {
    char numbers[128];
    std::snprintf(numbers, sizeof(numbers), "%.3f,%.3f,%.1f,%.1f",
                  row.write_amplification(), row.live_to_user(),
                  row.load_median_us, row.load_p99_us);
    out << row.mode << ',' << row.backend << ',' << row.snapshot_every << ','
        << row.turns << ',' << row.message_bytes << ',' << row.user_bytes << ','
        << row.live_bytes << ',' << row.disk_bytes << ',' << row.io_write_bytes
        << ',' << row.syscall_write_bytes << ',' << numbers << '\n';
  }
  return out.str();
}

Result<std::vector<GrowthRow>> RunStorageGrowth(const BenchOptions& options,
                                                Scratch& scratch) {
  struct Mode {
    std::string name;
    Persistence persistence;
    size_t snapshot_every;
    double geometric_ratio;
    const char* backend;  // GrowthRow::backend.
  };
  std::vector<Mode> modes = {
      {"full-rocksdb", Persistence::kFullSnapshots, 0, 0, kRockpoint}};
  for (const size_t k : options.snapshot_every) {
    modes.push_back({"delta-k" + std::to_string(k) + "-rocksdb",
                     Persistence::kDelta, k, 0, kRockpoint});
  }
  for (const double ratio : options.geometric_ratios) {
    const runtime::SnapshotPolicy policy = runtime::SnapshotPolicy::Geometric(
        ratio, static_cast<int64_t>(options.geometric_min_bytes));
    if (std::string error = runtime::CheckSnapshotPolicy(policy, 0);
        !error.empty()) {
      return Status::InvalidArgument("bench: --geometric-ratios: " + error);
    }
    modes.push_back({GeometricModeName(ratio), Persistence::kDeltaGeometric, 0,
                     ratio, kRockpoint});
  }
  modes.push_back({"full-sqlite", Persistence::kFullSnapshots, 0, 0, kSqlite});
  modes.push_back({"full-jsonl", Persistence::kFullSnapshots, 0, 0, kJsonl});

  std::vector<GrowthRow> rows;
  for (const Mode& mode : modes) {
    for (const size_t turns : options.turns) {
      ConversationSpec spec;
      spec.thread = "conversation";
      spec.turns = turns;
      spec.message_bytes = options.message_bytes;
      spec.mode = mode.persistence;
      spec.snapshot_every = mode.snapshot_every;
      if (mode.persistence == Persistence::kDeltaGeometric) {
        spec.geometric = runtime::SnapshotPolicy::Geometric(
            mode.geometric_ratio,
            static_cast<int64_t>(options.geometric_min_bytes));
      }
      GrowthRow row;
      row.mode = mode.name;
      row.backend = mode.backend;
      row.snapshot_every = mode.snapshot_every;
      row.geometric_ratio = mode.geometric_ratio;
      row.turns = turns;
      row.message_bytes = options.message_bytes;
      RP_RETURN_IF_ERROR(
          MeasureMode(mode.backend, options, scratch, spec, &row));
      std::fprintf(stderr,
                   "  storage %-20s N=%-5zu live %10llu B  (%.2fx user)  "
                   "WA %.1f  load %.0f us  snapshots %zu  replay %zu\n",
                   row.mode.c_str(), turns,
                   static_cast<unsigned long long>(row.live_bytes),
                   row.live_to_user(), row.write_amplification(),
                   row.load_median_us, row.snapshots, row.replay_writes);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace rockpoint::bench
