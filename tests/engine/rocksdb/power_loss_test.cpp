// Power loss: what a RocksDB store keeps when the machine stops, modeled by
// PowerLossFileSystem (power_loss_fs.h: unsynced file data and directory
// entries not made durable by a directory fsync are lost). The SIGKILL
// crash tests (contract_kill.h) lose only what the process held; these lose
// what the kernel held too. Every acknowledged synced write must survive,
// and the store must open again, its own creation included.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "engine/contract_helpers.h"
#include "engine/rocksdb/power_loss_fs.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "engine/rocksdb/rocksdb_maintenance.h"

namespace rockpoint::testing {
namespace {

RocksDbOptions PowerLossOptions(const std::string& path) {
  RocksDbOptions options;
  options.path = path;
  options.sync_writes = true;
  options.block_cache_bytes = 4 << 20;
  return options;
}

// What the workload had acknowledged when the power went: checkpoint id ->
// its value of channel "a", and its write.
struct Acknowledged {
  std::map<std::string, std::string> values;
  std::map<std::string, std::string> writes;
};

// The value of checkpoint `i`: every 7th one is large enough for a blob
// file (RocksDbOptions::blob_file_min_bytes, 64 KiB).
std::string ValueOf(int i) {
  std::string value = "v" + std::to_string(i);
  if (i % 7 == 0)
    value.append(size_t{80} << 10, static_cast<char>('a' + i % 26));
  return value;
}

// Puts a chain of checkpoints with one write each, compacting now and then
// (flushes, SST and blob files, a new MANIFEST entry, WAL switches and
// deletions), until `count`, a failure or the power cut. Records what was
// acknowledged: a call that returned OK while the power was still on.
void RunWorkload(RocksDbCheckpointer& store, const PowerLossFileSystem& fs,
                 int count, Acknowledged& acked) {
  const auto acknowledged = [&](const Status& status) {
    return status.ok() && fs.powered();
  };
  for (int i = 1; i <= count; ++i) {
    const std::string id = CpId(i);
    Checkpoint checkpoint =
        MakeCheckpoint(id, {{"a", Val(ValueOf(i))}}, {{"a", int64_t{i}}});
    auto put = store.Put(
        Cfg("t", i > 1 ? std::optional(CpId(i - 1)) : std::nullopt), checkpoint,
        Meta({{"step", Value(int64_t{i})}}), {{"a", int64_t{i}}});
    if (!acknowledged(put.status())) return;
    acked.values[id] = ValueOf(i);
    const std::string write = "w" + std::to_string(i);
    if (!acknowledged(store.PutWrites(Cfg("t", id), {W("a", write)}, "k"))) {
      return;
    }
    acked.writes[id] = write;
    if (i % 8 == 0 && !acknowledged(store.Compact())) return;
  }
}

// Reopens `path` with the real file system and checks that every
// acknowledged checkpoint and write is there, and the store verifies sound.
void CheckSurvivors(const std::string& path, const Acknowledged& acked,
                    const PowerLossFileSystem& fs) {
  std::string losses;
  for (const std::string& line : fs.losses()) losses += line + "\n";
  INFO("power loss did:\n" << losses);
  RocksDbOptions options = PowerLossOptions(path);
  options.create_if_missing = acked.values.empty();
  auto reopened = RocksDbCheckpointer::Open(options);
  REQUIRE_MESSAGE(reopened.ok(), reopened.status().ToString());
  RocksDbCheckpointer& store = **reopened;
  for (const auto& [id, value] : acked.values) {
    INFO("checkpoint " << id);
    auto tuple = store.GetTuple(Cfg("t", id));
    REQUIRE_MESSAGE(tuple.ok(), tuple.status().ToString());
    REQUIRE(tuple->has_value());
    CHECK(
        ValuesOf((*tuple)->checkpoint).starts_with("a=" + value.substr(0, 8)));
    CHECK((*tuple)->checkpoint.channel_values.at("a").bytes == value);
    const auto write = acked.writes.find(id);
    if (write != acked.writes.end()) {
      REQUIRE((*tuple)->pending_writes.size() == 1);
      CHECK((*tuple)->pending_writes[0].value.bytes == write->second);
    }
  }
  auto report = VerifyStore(store, nullptr);
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  for (const VerifyProblem& problem : report->problems) {
    INFO(problem.severity << " " << problem.check << " " << problem.key << ": "
                          << problem.detail);
    CHECK(problem.severity != "error");
  }
  CHECK(report->sound());
}

// Opens a store at `path` through `fs`, runs the workload, cuts the power
// (if the workload did not run into the planned cut), drops the store and
// applies the loss. Returns what was acknowledged.
Acknowledged RunUntilPowerLoss(const std::string& path, PowerLossFileSystem& fs,
                               int count) {
  Acknowledged acked;
  {
    auto opened = RocksDbOpener::Open(PowerLossOptions(path), fs.env());
    if (opened.ok() && fs.powered()) RunWorkload(**opened, fs, count, acked);
    fs.CutPower();
    // What the store does from here on (closing syncs the WAL) happens
    // after the cut: none of it reaches the disk.
  }
  fs.LosePower();
  return acked;
}

// Issue #19, defect 1: Open created the store directory but never fsynced
// its parent, so a power loss took the whole store, acknowledged writes and
// all.
TEST_CASE(
    "rocksdb power loss: regression: a store Open created survives a power "
    "loss") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  PowerLossFileSystem fs;
  const Acknowledged acked = RunUntilPowerLoss(path, fs, 3);
  REQUIRE(acked.values.size() == 3);
  CHECK(std::filesystem::is_directory(path));
  CheckSurvivors(path, acked, fs);
}

TEST_CASE(
    "rocksdb power loss: every acknowledged checkpoint survives a cut at any "
    "point") {
  constexpr int kCheckpoints = 24;
  // A run without a cut counts the mutating calls of the whole workload
  // (store creation included); the rounds then cut at points spread over
  // them, from inside Open to after the last write.
  int64_t total = 0;
  {
    TempDir dir;
    PowerLossFileSystem fs;
    const Acknowledged acked =
        RunUntilPowerLoss(dir.Sub("store"), fs, kCheckpoints);
    REQUIRE(acked.values.size() == kCheckpoints);
    total = fs.calls();
    CheckSurvivors(dir.Sub("store"), acked, fs);
  }
  REQUIRE(total > 0);
  constexpr int64_t kRounds = 40;
  for (int64_t round = 0; round <= kRounds; ++round) {
    const int64_t cut_after = total * round / kRounds;
    CAPTURE(cut_after);
    CAPTURE(total);
    TempDir dir;
    const std::string path = dir.Sub("store");
    PowerLossFileSystem fs;
    fs.CutPowerAfter(cut_after);
    const Acknowledged acked = RunUntilPowerLoss(path, fs, kCheckpoints);
    CheckSurvivors(path, acked, fs);
  }
}

}  // namespace
}  // namespace rockpoint::testing
