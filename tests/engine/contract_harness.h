// The contract suite's view of a backend: a ContractHarness (a fresh, empty
// store, reopened on request) and the registry of backends a test binary
// runs the suite on. The cases (contract_*.h) are compiled once, in
// contract_cases.cpp, and run on every backend registered in the binary
// they are linked into, each backend as a doctest subcase named after it.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/contract_helpers.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"

namespace rockpoint::testing {

// How a case opens a store of its own: the parts of StoreOptions
// (rockpoint/open.h) every persistent backend shares.
struct OpenSpec {
  // The encryption key (EncryptionOptions::key); nullopt: a plaintext store.
  std::optional<std::string> key;
  bool read_only = false;
};

// A record beneath the checkpointer, in the root namespace of thread
// `thread`: the checkpoint record of `checkpoint`, the value of channel "a"
// at version `version`, or the write of task "task", idx 0, on
// `checkpoint`.
enum class RecordKind { kCheckpoint, kValue, kWrite };
struct RecordRef {
  RecordKind kind = RecordKind::kCheckpoint;
  std::string thread;
  std::string checkpoint = CpId(1);
  int64_t version = 1;
};

// How the kill case (contract_kill.h) runs a backend's writer program: a
// child that writes chains (engine/rocksdb/chain_workload.h) with synced
// calls on a store and acknowledges each on a pipe
// (engine/rocksdb/crash_protocol.h); it is killed `rounds` times, without
// waiting for an acknowledgement every `early_kill_every`-th round, and the
// store is compacted after every `compact_every`-th.
struct KillPlan {
  std::string binary;
  std::vector<std::string> args;  // the store's URL, the chain prefix, flags.
  std::string prefix;
  // The chains' ids are UTF-8 text (CrashChains; the writer's --text-ids).
  bool text_ids = false;
  int rounds = 0;
  int early_kill_every = 0;
  int compact_every = 0;
};

// The stores a case makes for itself beside the harness's own, each by a
// name (a directory's file, a database), and raw access to their records
// beneath the checkpointer: what the cases on keys, read-only opens,
// encryption and damage need. Only the raw access is per backend; the
// assertions are the cases'. Raw access is to a store no handle holds open.
class ContractStores {
 public:
  virtual ~ContractStores() = default;
  // Opens the store `name`, creating it (unless read_only) when missing.
  virtual Result<std::unique_ptr<Checkpointer>> Open(const std::string& name,
                                                     const OpenSpec& spec) = 0;
  // The bytes of store `name` beneath the checkpointer, to compare before
  // and after a refused open; empty when the backend's open may write
  // (RocksDB's log files), so nothing is compared.
  virtual std::string Fingerprint(const std::string& name) = 0;
  // The records of store `name` beneath the checkpointer, to compare after
  // raw changes were undone (which may leave other bytes changed).
  virtual std::string Records(const std::string& name) {
    return Fingerprint(name);
  }
  // Whether the raw access below is implemented (else the cases that need
  // it skip with a MESSAGE).
  virtual bool raw() const { return false; }
  // The sealed bytes of `record` in the encrypted store `name`.
  virtual std::string Sealed(const std::string& name, const RecordRef& record);
  // Stores `bytes` as the sealed bytes of `record` in store `name`.
  virtual void SetSealed(const std::string& name, const RecordRef& record,
                         const std::string& bytes);
  // Replaces `record` of the encrypted store `name` by the record at the
  // same place of the plaintext store `plain`, as a plaintext store holds
  // it. Default: the plaintext record's stored bytes (Sealed of `plain`)
  // written where the sealed one was (SetSealed), for a backend whose
  // plaintext and sealed records sit in the same place.
  virtual void InjectPlaintext(const std::string& name,
                               const std::string& plain,
                               const RecordRef& record);
  // Deletes `record` of the plaintext store `name`; returns what a
  // Corruption about the lost record names (parts its message holds), or
  // nullopt when the backend cannot (the case skips with a MESSAGE).
  virtual std::optional<std::vector<std::string>> DeleteRecord(
      const std::string& name, const RecordRef& record) {
    return std::nullopt;
  }
  // Stores bytes that do not decode as `record` of the plaintext store
  // `name`; returns what the Corruption names, or nullopt like DeleteRecord.
  virtual std::optional<std::vector<std::string>> BreakRecord(
      const std::string& name, const RecordRef& record) {
    return std::nullopt;
  }
  // The kill case's writer program for store `name`, or nullopt when the
  // backend has none (the case skips with a MESSAGE).
  virtual std::optional<KillPlan> KillPlanFor(const std::string& name) {
    return std::nullopt;
  }
  // Closes whatever the harness holds open of store `name`, before another
  // process opens it.
  virtual void Release(const std::string& name) {}
  // Compacts `store` (opened by Open) where the backend can, so that later
  // kill rounds recover on compacted files; OK where there is nothing to do.
  virtual Status Compact(Checkpointer& store) { return Status::OK(); }
  // Checks store `name` just opened read-write after a kill, beyond what
  // every backend reads back; returns whether the open cut a torn tail.
  virtual bool CheckRecovered(const std::string& name, Checkpointer& store) {
    return false;
  }
  // What the Corruption of a sealed `record` names: parts its message
  // holds.
  virtual std::vector<std::string> NamesOf(const RecordRef& record) const;
  // Whether a list reads its tuples a page at a time, so that a damaged
  // record fails the page before it (PostgreSQL) instead of after the
  // tuples before it.
  virtual bool lists_by_page() const { return false; }
  // Whether a damaged record fails the open of the store (JSONL replays
  // every record at open) instead of the reads that need it.
  virtual bool damage_fails_open() const { return false; }
};

// Sets `options` (a backend's options: read_only, encryption) as `spec`
// says.
template <typename Options>
void ApplySpec(const OpenSpec& spec, Options* options) {
  options->read_only = spec.read_only;
  if (spec.key) options->encryption = EncryptionOptions{*spec.key};
}

// Store::Open(options) with `spec` applied, as a Checkpointer.
template <typename Store, typename Options>
Result<std::unique_ptr<Checkpointer>> OpenWithSpec(Options options,
                                                   const OpenSpec& spec) {
  ApplySpec(spec, &options);
  auto opened = Store::Open(options);
  if (!opened.ok()) return opened.status();
  return std::unique_ptr<Checkpointer>(std::move(opened).value());
}

// The bytes of the file at `path`; empty when there is none.
inline std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class ContractHarness {
 public:
  virtual ~ContractHarness() = default;
  // Valid until the next Reopen().
  virtual Checkpointer& store() = 0;
  // Closes and reopens the store; a no-op when it is not persistent.
  virtual void Reopen() = 0;
  // What the backend's keys are (contract_helpers.h, kTextIds and
  // kWritesKeyedByTask).
  virtual bool text_ids() const = 0;
  virtual bool writes_keyed_by_task() const = 0;
  // The backend's own stores for a case, or nullptr for a backend without
  // them (the cases that need them skip with a MESSAGE). Valid as long as
  // the harness.
  virtual ContractStores* stores() { return nullptr; }
};

struct ContractBackend {
  std::string name;
  std::function<std::unique_ptr<ContractHarness>()> make;
};

// The backends registered in this binary, in registration order.
std::vector<ContractBackend>& ContractBackends();

// Runs `body` on a fresh harness of each registered backend, each in a
// subcase named after the backend. Fails when none is registered.
void RunOnEachBackend(void (*body)(ContractHarness&));

// A Harness type of the old template form (kName, a default constructor,
// store(), Reopen(), the optional traits and an optional
// `ContractStores* stores()`) as a ContractHarness.
template <typename H>
class HarnessAdapter final : public ContractHarness {
 public:
  Checkpointer& store() override { return harness_.store(); }
  void Reopen() override { harness_.Reopen(); }
  bool text_ids() const override { return kTextIds<H>; }
  bool writes_keyed_by_task() const override { return kWritesKeyedByTask<H>; }
  ContractStores* stores() override {
    if constexpr (requires { harness_.stores(); }) {
      return harness_.stores();
    } else {
      return nullptr;
    }
  }

 private:
  H harness_;
};

template <typename H>
bool RegisterContractBackend() {
  ContractBackends().push_back(ContractBackend{
      H::kName, [] { return std::make_unique<HarnessAdapter<H>>(); }});
  return true;
}

}  // namespace rockpoint::testing

// A contract case: `body` runs with `h`, a ContractHarness&, once per
// registered backend.
#define RP_CONTRACT_CASE_IMPL(name, body)                           \
  static void body(::rockpoint::testing::ContractHarness& h);       \
  TEST_CASE(name) { ::rockpoint::testing::RunOnEachBackend(body); } \
  static void body(::rockpoint::testing::ContractHarness& h)
#define RP_CONTRACT_CASE(name) \
  RP_CONTRACT_CASE_IMPL(name, DOCTEST_ANONYMOUS(RpContractBody))
