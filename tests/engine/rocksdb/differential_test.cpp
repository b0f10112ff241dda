// Differential test: one seeded random sequence of operations applied to the
// memory, RocksDB and SQLite backends, with every result and the whole
// readable state compared after each operation. The id, channel, version and
// run spaces are small on purpose, so that sequences collide the way real
// histories do (shared versions across branches and threads, copies,
// retention over forks). A divergence prints its seed and step; rerun one
// seed with -tc="differential*" -sc="*" and ROCKPOINT_DIFFERENTIAL_SEED.
//
// Most puts use a fresh, increasing checkpoint id; one in eight puts an
// existing id again with any parent, so histories also hold parents with
// larger ids than their children and parent cycles.
#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/contract_helpers.h"
#include "rockpoint/memory_checkpointer.h"
#include "rockpoint/rocksdb_checkpointer.h"
#include "rockpoint/sqlite_checkpointer.h"

namespace rockpoint::testing {
namespace {

const std::vector<std::string> kThreads = {"t", "t1", std::string("t\0x", 3)};
const std::vector<std::string> kNamespaces = {"", "sub:1|x"};
const std::vector<std::string> kChannels = {"a", "b"};
const std::vector<std::string> kRuns = {"r1", "r2", "r3"};

// `name` with NUL bytes shown as \0, for the operation log.
std::string Shown(const std::string& name) {
  std::string out;
  for (char c : name) out += c == '\0' ? std::string("\\0") : std::string(1, c);
  return out;
}

// The three backends under test, fed the same calls.
struct Backends {
  TempDir dir;
  MemoryCheckpointer memory;
  std::unique_ptr<RocksDbCheckpointer> rocksdb;
  std::unique_ptr<SqliteCheckpointer> sqlite;

  Backends() {
    RocksDbOptions rocks;
    rocks.path = dir.Sub("store");
    rocks.sync_writes = false;
    rocksdb = Unwrap(RocksDbCheckpointer::Open(rocks));
    sqlite = Unwrap(
        SqliteCheckpointer::Open({.path = ":memory:", .sync_writes = false}));
  }
  std::vector<std::pair<const char*, Checkpointer*>> all() {
    return {{"memory", &memory},
            {"rocksdb", rocksdb.get()},
            {"sqlite", sqlite.get()}};
  }
};

// A status for comparison: its code only (messages may name things
// differently), "ok" when fine.
std::string CodeOf(const Status& status) {
  if (status.ok()) return "ok";
  const std::string text = status.ToString();
  return text.substr(0, text.find(':'));
}

std::string Describe(const CheckpointTuple& tuple) {
  std::ostringstream out;
  out << *tuple.config.checkpoint_ns << "/" << *tuple.config.checkpoint_id
      << (tuple.hidden ? " hidden" : "") << " parent="
      << (tuple.parent_config ? *tuple.parent_config->checkpoint_id : "-")
      << " values=" << ValuesOf(tuple.checkpoint)
      << " meta=" << tuple.metadata.DebugString()
      << " writes=" << WritesOf(tuple.pending_writes);
  return out.str();
}

// Everything a caller can read of `thread`: every tuple (hidden included),
// the latest of each namespace, and the delta history of every checkpoint.
std::string ReadableState(Checkpointer& store, const std::string& thread) {
  std::ostringstream out;
  ListOptions options = ListOf(Cfg(thread, std::nullopt, std::nullopt));
  options.include_hidden = true;
  auto tuples = store.ListAll(options);
  if (!tuples.ok()) return "list failed: " + CodeOf(tuples.status());
  for (const CheckpointTuple& tuple : *tuples) {
    out << Describe(tuple) << "\n";
    auto history = store.GetDeltaChannelHistory(tuple.config, kChannels);
    if (!history.ok()) {
      out << "  history failed: " << CodeOf(history.status()) << "\n";
      continue;
    }
    for (const auto& [channel, channel_history] : *history) {
      out << "  history " << channel << " seed="
          << (channel_history.seed ? channel_history.seed->bytes : "-")
          << " writes=" << WritesOf(channel_history.writes) << "\n";
    }
  }
  for (const std::string& ns : kNamespaces) {
    auto latest = store.GetTuple(Cfg(thread, std::nullopt, ns));
    if (!latest.ok()) {
      out << "latest " << ns << " failed: " << CodeOf(latest.status()) << "\n";
    } else if (latest->has_value()) {
      out << "latest " << ns << " " << *(*latest)->config.checkpoint_id << "\n";
    }
  }
  return out.str();
}

// Generates one random operation at a time and applies it to every backend.
class Sequence {
 public:
  explicit Sequence(uint64_t seed) : random_(seed) {}

  // Applies one operation; returns its description and per-backend result
  // codes.
  std::pair<std::string, std::vector<std::string>> Step(Backends& backends) {
    const int kind = Pick(10);
    if (kind < 4) return Put(backends);
    if (kind < 6) return Writes(backends);
    if (kind == 6) return Copy(backends);
    if (kind == 7) return DeleteRuns(backends);
    if (kind == 8) return Prune(backends);
    return DeleteThread(backends);
  }

 private:
  using Outcome = std::pair<std::string, std::vector<std::string>>;

  int Pick(int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(random_);
  }
  const std::string& PickOf(const std::vector<std::string>& from) {
    return from[Pick(static_cast<int>(from.size()))];
  }

  template <typename Fn>
  static Outcome Apply(Backends& backends, std::string what, Fn fn) {
    std::vector<std::string> codes;
    for (auto& [name, store] : backends.all()) {
      const Status status = fn(*store);
      codes.push_back(CodeOf(status));
      if (!status.ok())
        what += "\n   " + std::string(name) + ": " + status.ToString();
    }
    return {std::move(what), std::move(codes)};
  }

  Outcome Put(Backends& backends) {
    const std::string& thread = PickOf(kThreads);
    const std::string& ns = PickOf(kNamespaces);
    std::vector<std::string>& ids = ids_[{thread, ns}];
    std::optional<std::string> parent;
    if (!ids.empty() && Pick(4) != 0) parent = PickOf(ids);
    const bool again = !ids.empty() && Pick(8) == 0;
    const std::string id = again ? PickOf(ids) : CpId(++next_id_);
    if (!again) ids.push_back(id);
    std::map<std::string, TypedValue> values;
    ChannelVersions versions, new_versions;
    for (const std::string& channel : kChannels) {
      if (Pick(3) == 0) continue;
      const int64_t version = 1 + Pick(3);
      versions[channel] = version;
      if (Pick(2) == 0) {
        new_versions[channel] = version;
        if (Pick(4) != 0)
          values[channel] = Val(channel + std::to_string(id.back()) + "v" +
                                std::to_string(version));
      }
    }
    Checkpoint checkpoint = MakeCheckpoint(id, values, versions);
    const Value metadata = Meta({{"run_id", Value(PickOf(kRuns))}});
    std::string what = "put " + Shown(thread) + "/" + ns + "/" + id +
                       " parent=" + parent.value_or("-") +
                       " values=" + ValuesOf(checkpoint);
    return Apply(backends, what, [&](Checkpointer& store) {
      return store
          .Put(CheckpointConfig{thread, ns, parent}, checkpoint, metadata,
               new_versions)
          .status();
    });
  }

  Outcome Writes(Backends& backends) {
    const std::string& thread = PickOf(kThreads);
    const std::string& ns = PickOf(kNamespaces);
    const std::vector<std::string>& ids = ids_[{thread, ns}];
    if (ids.empty()) return Put(backends);
    const std::string id = ids[Pick(static_cast<int>(ids.size()))];
    std::vector<ChannelWrite> writes;
    const int n = 1 + Pick(2);
    for (int i = 0; i < n; ++i) {
      writes.push_back(W(Pick(5) == 0 ? "__error__" : PickOf(kChannels),
                         "w" + std::to_string(++next_write_)));
    }
    const std::string task = "task" + std::to_string(Pick(2));
    return Apply(backends, "put_writes " + Shown(thread) + "/" + ns + "/" + id,
                 [&](Checkpointer& store) {
                   return store.PutWrites(CheckpointConfig{thread, ns, id},
                                          writes, task, "");
                 });
  }

  Outcome Copy(Backends& backends) {
    const std::string& source = PickOf(kThreads);
    const std::string& target = PickOf(kThreads);
    Outcome outcome = Apply(
        backends, "copy_thread " + Shown(source) + " -> " + Shown(target),
        [&](Checkpointer& store) { return store.CopyThread(source, target); });
    if (outcome.second.front() == "ok") {
      for (const std::string& ns : kNamespaces) {
        for (const std::string& id : ids_[{source, ns}]) {
          ids_[{target, ns}].push_back(id);
        }
      }
    }
    return outcome;
  }

  Outcome DeleteRuns(Backends& backends) {
    const std::vector<std::string> runs = {PickOf(kRuns)};
    return Apply(
        backends, "delete_for_runs " + runs.front(),
        [&](Checkpointer& store) { return store.DeleteForRuns(runs); });
  }

  Outcome Prune(Backends& backends) {
    const std::vector<std::string> threads = {PickOf(kThreads)};
    const size_t keep = 1 + Pick(2);
    const PruneStrategy strategy =
        Pick(4) == 0 ? PruneStrategy::kDelete : PruneStrategy::kKeepLatest;
    return Apply(
        backends,
        "prune " + Shown(threads.front()) + " keep " + std::to_string(keep),
        [&](Checkpointer& store) {
          return store.Prune(threads, strategy, keep);
        });
  }

  Outcome DeleteThread(Backends& backends) {
    const std::string& thread = PickOf(kThreads);
    return Apply(
        backends, "delete_thread " + Shown(thread),
        [&](Checkpointer& store) { return store.DeleteThread(thread); });
  }

  std::mt19937_64 random_;
  int next_id_ = 0;
  int next_write_ = 0;
  // Ids put (or copied) per (thread, ns); deleted ones stay, as parents and
  // write targets that may no longer exist.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> ids_;
};

// Runs one seeded sequence; REQUIREs agreement after every step.
void RunSequence(uint64_t seed, int steps) {
  Backends backends;
  Sequence sequence(seed);
  std::string log;
  for (int step = 0; step < steps; ++step) {
    auto [what, codes] = sequence.Step(backends);
    log += std::to_string(step) + ": " + what + "\n";
    INFO("seed " << seed << ", operations so far:\n" << log);
    REQUIRE_MESSAGE(codes[0] == codes[1],
                    "memory " << codes[0] << " rocksdb " << codes[1]);
    REQUIRE_MESSAGE(codes[0] == codes[2],
                    "memory " << codes[0] << " sqlite " << codes[2]);
    for (const std::string& thread : kThreads) {
      const std::string reference = ReadableState(backends.memory, thread);
      CHECK_MESSAGE(ReadableState(*backends.rocksdb, thread) == reference,
                    "rocksdb differs on thread " << thread);
      CHECK_MESSAGE(ReadableState(*backends.sqlite, thread) == reference,
                    "sqlite differs on thread " << thread);
    }
  }
}

TEST_CASE(
    "differential: memory, RocksDB and SQLite agree on random sequences") {
  if (const char* one = std::getenv("ROCKPOINT_DIFFERENTIAL_SEED")) {
    RunSequence(std::strtoull(one, nullptr, 10), 60);
    return;
  }
  for (uint64_t seed = 1; seed <= 60; ++seed) RunSequence(seed, 40);
}

}  // namespace
}  // namespace rockpoint::testing
