// The operation model of the differential checks: sequences of checkpointer
// operations applied alike to several backends, whose results and whole
// readable state must agree after every operation. The RocksDB differential
// test (tests/engine/rocksdb/differential_test.cpp) draws the choices from a
// seeded RNG; the differential fuzz target (fuzz/differential_fuzz.cpp)
// draws them from its input bytes.
//
// The id, channel, version and run spaces are small on purpose, so that
// sequences collide the way real histories do (shared versions across
// branches and threads, copies, retention over forks). Most puts use a
// fresh, increasing checkpoint id; one in eight puts an existing id again
// with any parent, so histories also hold parents with larger ids than
// their children, and parent cycles.
//
// Thread-safety: test code; a Sequence and its stores belong to one thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/store_builders.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint::testing::differential {

inline const std::vector<std::string> kThreads = {"t", "t1",
                                                  std::string("t\0x", 3)};
inline const std::vector<std::string> kNamespaces = {"", "sub:1|x"};
inline const std::vector<std::string> kChannels = {"a", "b"};
inline const std::vector<std::string> kRuns = {"r1", "r2", "r3"};

// Where a sequence's choices come from.
class Choices {
 public:
  virtual ~Choices() = default;
  // A number in [0, n). REQUIRES: n > 0.
  virtual int Pick(int n) = 0;
};

// Choices from a seeded RNG: one seed, one sequence, on every platform the
// standard library's mt19937_64 and uniform_int_distribution agree on.
class RandomChoices final : public Choices {
 public:
  explicit RandomChoices(uint64_t seed) : random_(seed) {}
  int Pick(int n) override {
    return std::uniform_int_distribution<int>(0, n - 1)(random_);
  }

 private:
  std::mt19937_64 random_;
};

// One backend under test, by the name its divergences are reported with.
struct NamedStore {
  const char* name;
  Checkpointer* store;
};

// What one operation did: its description (with the error message of every
// backend that failed) and each backend's status code, in store order.
struct Outcome {
  std::string what;
  std::vector<std::string> codes;
};

// `name` with NUL bytes shown as \0, for the operation log.
inline std::string Shown(const std::string& name) {
  std::string out;
  for (char c : name) out += c == '\0' ? std::string("\\0") : std::string(1, c);
  return out;
}

// A status for comparison: its code only (messages may name things
// differently), "ok" when fine.
inline std::string CodeOf(const Status& status) {
  if (status.ok()) return "ok";
  const std::string text = status.ToString();
  return text.substr(0, text.find(':'));
}

// One line per tuple: where it is, its parent, values, metadata and writes.
inline std::string DescribeTuple(const CheckpointTuple& tuple) {
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
// the delta history of each, and the latest checkpoint of each namespace.
// Equal stores give equal strings.
inline std::string ReadableState(Checkpointer& store,
                                 const std::string& thread) {
  std::ostringstream out;
  ListOptions options = ListOf(Cfg(thread, std::nullopt, std::nullopt));
  options.include_hidden = true;
  auto tuples = store.ListAll(options);
  if (!tuples.ok()) return "list failed: " + CodeOf(tuples.status());
  for (const CheckpointTuple& tuple : *tuples) {
    out << DescribeTuple(tuple) << "\n";
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

// Where `stores` disagree after `outcome`: a different status code than the
// first store's, else a different ReadableState of some thread; nullopt when
// they all agree. REQUIRES: outcome came from Sequence::Step(stores).
inline std::optional<std::string> FindDivergence(
    const Outcome& outcome, const std::vector<NamedStore>& stores) {
  for (size_t i = 1; i < stores.size(); ++i) {
    if (outcome.codes[i] != outcome.codes[0]) {
      return std::string(stores[0].name) + " " + outcome.codes[0] + ", " +
             stores[i].name + " " + outcome.codes[i];
    }
  }
  for (const std::string& thread : kThreads) {
    const std::string reference = ReadableState(*stores[0].store, thread);
    for (size_t i = 1; i < stores.size(); ++i) {
      const std::string state = ReadableState(*stores[i].store, thread);
      if (state != reference) {
        return std::string(stores[i].name) + " differs from " + stores[0].name +
               " on thread " + Shown(thread) + ":\n" + stores[0].name + ":\n" +
               reference + stores[i].name + ":\n" + state;
      }
    }
  }
  return std::nullopt;
}

// Generates one operation at a time from `choices` and applies it to every
// store: put (4 in 10), put_writes (2 in 10), copy_thread, delete_for_runs,
// prune and delete_thread (1 in 10 each).
class Sequence {
 public:
  // REQUIRES: `choices` outlives the sequence.
  explicit Sequence(Choices& choices) : choices_(choices) {}

  Outcome Step(const std::vector<NamedStore>& stores) {
    const int kind = Pick(10);
    if (kind < 4) return Put(stores);
    if (kind < 6) return Writes(stores);
    if (kind == 6) return Copy(stores);
    if (kind == 7) return DeleteRuns(stores);
    if (kind == 8) return Prune(stores);
    return DeleteThread(stores);
  }

 private:
  int Pick(int n) { return choices_.Pick(n); }
  const std::string& PickOf(const std::vector<std::string>& from) {
    return from[Pick(static_cast<int>(from.size()))];
  }

  // Calls `fn` on every store; `what` gains the message of each failure.
  template <typename Fn>
  static Outcome Apply(const std::vector<NamedStore>& stores, std::string what,
                       Fn fn) {
    std::vector<std::string> codes;
    for (const NamedStore& named : stores) {
      const Status status = fn(*named.store);
      codes.push_back(CodeOf(status));
      if (!status.ok())
        what += "\n   " + std::string(named.name) + ": " + status.ToString();
    }
    return {std::move(what), std::move(codes)};
  }

  Outcome Put(const std::vector<NamedStore>& stores) {
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
    return Apply(stores, what, [&](Checkpointer& store) {
      return store
          .Put(CheckpointConfig{thread, ns, parent}, checkpoint, metadata,
               new_versions)
          .status();
    });
  }

  Outcome Writes(const std::vector<NamedStore>& stores) {
    const std::string& thread = PickOf(kThreads);
    const std::string& ns = PickOf(kNamespaces);
    const std::vector<std::string>& ids = ids_[{thread, ns}];
    if (ids.empty()) return Put(stores);
    const std::string id = ids[Pick(static_cast<int>(ids.size()))];
    std::vector<ChannelWrite> writes;
    const int n = 1 + Pick(2);
    for (int i = 0; i < n; ++i) {
      writes.push_back(W(Pick(5) == 0 ? "__error__" : PickOf(kChannels),
                         "w" + std::to_string(++next_write_)));
    }
    const std::string task = "task" + std::to_string(Pick(2));
    return Apply(stores, "put_writes " + Shown(thread) + "/" + ns + "/" + id,
                 [&](Checkpointer& store) {
                   return store.PutWrites(CheckpointConfig{thread, ns, id},
                                          writes, task, "");
                 });
  }

  Outcome Copy(const std::vector<NamedStore>& stores) {
    const std::string& source = PickOf(kThreads);
    const std::string& target = PickOf(kThreads);
    Outcome outcome = Apply(
        stores, "copy_thread " + Shown(source) + " -> " + Shown(target),
        [&](Checkpointer& store) { return store.CopyThread(source, target); });
    // A copy onto itself adds no ids (and appending a vector to itself
    // while iterating it would read freed memory).
    if (outcome.codes.front() == "ok" && source != target) {
      for (const std::string& ns : kNamespaces) {
        const std::vector<std::string>& copied = ids_[{source, ns}];
        std::vector<std::string>& into = ids_[{target, ns}];
        into.insert(into.end(), copied.begin(), copied.end());
      }
    }
    return outcome;
  }

  Outcome DeleteRuns(const std::vector<NamedStore>& stores) {
    const std::vector<std::string> runs = {PickOf(kRuns)};
    return Apply(
        stores, "delete_for_runs " + runs.front(),
        [&](Checkpointer& store) { return store.DeleteForRuns(runs); });
  }

  Outcome Prune(const std::vector<NamedStore>& stores) {
    const std::vector<std::string> threads = {PickOf(kThreads)};
    const size_t keep = 1 + Pick(2);
    const PruneStrategy strategy =
        Pick(4) == 0 ? PruneStrategy::kDelete : PruneStrategy::kKeepLatest;
    return Apply(
        stores,
        "prune " + Shown(threads.front()) + " keep " + std::to_string(keep),
        [&](Checkpointer& store) {
          return store.Prune(threads, strategy, keep);
        });
  }

  Outcome DeleteThread(const std::vector<NamedStore>& stores) {
    const std::string& thread = PickOf(kThreads);
    return Apply(
        stores, "delete_thread " + Shown(thread),
        [&](Checkpointer& store) { return store.DeleteThread(thread); });
  }

  Choices& choices_;
  int next_id_ = 0;
  int next_write_ = 0;
  // Ids put (or copied) per (thread, ns); deleted ones stay, as parents and
  // write targets that may no longer exist.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> ids_;
};

}  // namespace rockpoint::testing::differential
