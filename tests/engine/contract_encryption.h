// Contract suite, encryption at rest (docs/ENCRYPTION.md), on the stores a
// backend's harness makes for a case (ContractStores): a missing, wrong or
// malformed key is refused at open and changes nothing; so is a key for a
// plaintext store with records; the key may come from ROCKPOINT_AES_KEY;
// and a sealed record that is changed, truncated, moved to another thread,
// taken from another store or replaced by a plaintext record is Corruption
// naming it, with nothing of it returned and other threads reading as
// before. Compiled by contract_cases.cpp.
#pragma once

#include <stdlib.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"
#include "rockpoint/encryption.h"

namespace rockpoint::testing {

// The harness's ContractStores, or nullptr after a MESSAGE saying the case
// is skipped on this backend. `raw`: the case needs raw access too.
inline ContractStores* StoresOf(ContractHarness& h, bool raw = false) {
  ContractStores* stores = h.stores();
  if (stores == nullptr) {
    MESSAGE("skipped: this backend's harness makes no stores of its own");
  } else if (raw && !stores->raw()) {
    MESSAGE("skipped: this backend's harness has no raw access to records");
    return nullptr;
  }
  return stores;
}

// Makes store `name` with `spec`, holding checkpoint cp0001 of thread t;
// returns its Fingerprint.
inline std::string PutOneCheckpoint(ContractStores& stores,
                                    const std::string& name,
                                    const OpenSpec& spec) {
  DoPut(*Unwrap(stores.Open(name, spec)), {.thread = "t", .id = CpId(1)});
  return stores.Fingerprint(name);
}

// `opened` failed with InvalidArgument whose message holds each of `parts`.
inline void CheckRefused(const Result<std::unique_ptr<Checkpointer>>& opened,
                         const std::vector<std::string>& parts) {
  REQUIRE_FALSE(opened.ok());
  INFO(opened.status().ToString());
  CHECK(opened.status().IsInvalidArgument());
  for (const std::string& part : parts) {
    CAPTURE(part);
    CHECK(opened.status().message().find(part) != std::string::npos);
  }
}

// The store `name` (key `key`) does not return the damaged `record` of
// thread t's cp0001: its read and a list of t are Corruption naming it;
// the list returns no other tuple than cp0002 (and that first, unless the
// backend lists by pages); thread u reads as before. Where damage fails
// the open, the open is that Corruption, read-write and read-only, and
// changes nothing. The Corruption holds `extra` too.
inline void CheckDamaged(ContractStores& stores, const std::string& name,
                         const std::string& key, const RecordRef& record,
                         const std::vector<std::string>& extra = {}) {
  std::vector<std::string> names = stores.NamesOf(record);
  names.push_back("\"" + record.thread + "\"");
  names.insert(names.end(), extra.begin(), extra.end());
  if (stores.damage_fails_open()) {
    const std::string before = stores.Fingerprint(name);
    for (const bool read_only : {false, true}) {
      CAPTURE(read_only);
      CheckCorruption(stores.Open(name, {key, read_only}).status(), names);
    }
    CHECK(stores.Fingerprint(name) == before);
    return;
  }
  std::unique_ptr<Checkpointer> store = Unwrap(stores.Open(name, {key}));
  CheckCorruption(store->GetTuple(Cfg(record.thread, CpId(1))).status(), names);
  std::unique_ptr<TupleCursor> cursor =
      Unwrap(store->List(ListOf(Cfg(record.thread, std::nullopt))));
  Result<std::optional<CheckpointTuple>> next = cursor->Next();
  if (!stores.lists_by_page()) {
    REQUIRE_MESSAGE(next.ok(), next.status().ToString());
    REQUIRE(next->has_value());
  }
  while (next.ok() && next->has_value()) {
    CHECK((*next)->checkpoint.id == CpId(2));
    next = cursor->Next();
  }
  CheckCorruption(next.status(), names);
  const std::string other = record.thread == "t" ? "u" : "t";
  CHECK(ValuesOf(MustGet(*store, Cfg(other, CpId(1))).checkpoint) ==
        "a=" + other + "-1");
}

// Each kind of damage to `record` (thread t) of store "s" (key `key`), as
// bytes stored in its place: `t` and `u` are the record's and its twin's
// sealed bytes.
inline std::vector<std::pair<std::string, std::string>> Damages(
    ContractStores& stores, const RecordRef& record, const std::string& t,
    const std::string& u) {
  std::string changed = t;
  changed[changed.size() / 2] ^= 0x01;
  std::string changed_last = t;
  changed_last.back() ^= 0x80;
  std::vector<std::pair<std::string, std::string>> damages = {
      {"a changed byte", changed},
      {"a changed last byte", changed_last},
      {"u's record in t", u},
      {"truncated by one byte", t.substr(0, t.size() - 1)},
      {"sealed with another key", stores.Sealed("other-key", record)},
      {"another store's with the same key", stores.Sealed("same-key", record)}};
  for (const size_t size : {size_t{40}, size_t{20}, size_t{5}, size_t{1}}) {
    if (size >= t.size()) continue;  // a short record: no truncation.
    damages.emplace_back("truncated to " + std::to_string(size) + " bytes",
                         t.substr(0, size));
  }
  return damages;
}

}  // namespace rockpoint::testing

RP_CONTRACT_CASE(
    "contract encryption: a missing, wrong or malformed key is refused at "
    "open") {
  RP_CONTRACT_USING;
  ContractStores* stores = StoresOf(h);
  if (stores == nullptr) return;
  const std::string before = PutOneCheckpoint(*stores, "s", {KeyOf('k')});
  for (const bool read_only : {false, true}) {
    CAPTURE(read_only);
    CheckRefused(stores->Open("s", {std::nullopt, read_only}),
                 {"the store is encrypted"});
    CheckRefused(stores->Open("s", {KeyOf('w'), read_only}),
                 {"wrong encryption key"});
    for (const size_t size : {size_t{7}, size_t{16}, size_t{31}}) {
      CAPTURE(size);
      CheckRefused(stores->Open("s", {std::string(size, 'x'), read_only}),
                   {"32 bytes"});
    }
  }
  CHECK(stores->Fingerprint("s") == before);  // nothing changed.
  CHECK(MustGet(*Unwrap(stores->Open("s", {KeyOf('k')})), Cfg("t"))
            .checkpoint.id == CpId(1));
}

RP_CONTRACT_CASE(
    "contract encryption: a key for a plaintext store with records is "
    "refused") {
  RP_CONTRACT_USING;
  ContractStores* stores = StoresOf(h);
  if (stores == nullptr) return;
  const std::string before = PutOneCheckpoint(*stores, "plain", {});
  for (const bool read_only : {false, true}) {
    CAPTURE(read_only);
    CheckRefused(stores->Open("plain", {KeyOf('k'), read_only}),
                 {"plaintext records", "rekey"});
  }
  CHECK(stores->Fingerprint("plain") == before);
  // Refused, and changed nothing: it still opens without a key.
  CHECK(MustGet(*Unwrap(stores->Open("plain", {})), Cfg("t")).checkpoint.id ==
        CpId(1));
}

RP_CONTRACT_CASE(
    "contract encryption: the key from ROCKPOINT_AES_KEY when the key is "
    "empty") {
  RP_CONTRACT_USING;
  ContractStores* stores = StoresOf(h);
  if (stores == nullptr) return;
  const std::string before = PutOneCheckpoint(*stores, "s", {KeyOf('k')});
  const OpenSpec from_environment{std::string()};
  REQUIRE(::setenv(kEncryptionKeyEnvironment,
                   FormatEncryptionKey(KeyOf('k')).c_str(), 1) == 0);
  CHECK(MustGet(*Unwrap(stores->Open("s", from_environment)), Cfg("t"))
            .checkpoint.id == CpId(1));
  REQUIRE(::setenv(kEncryptionKeyEnvironment,
                   FormatEncryptionKey(KeyOf('w')).c_str(), 1) == 0);
  CheckRefused(stores->Open("s", from_environment), {"wrong encryption key"});
  REQUIRE(::setenv(kEncryptionKeyEnvironment, "not hex", 1) == 0);
  CheckRefused(stores->Open("s", from_environment), {});
  REQUIRE(::unsetenv(kEncryptionKeyEnvironment) == 0);
  CheckRefused(stores->Open("s", from_environment), {});
  CHECK(stores->Fingerprint("s") == before);
}

RP_CONTRACT_CASE(
    "contract encryption: a damaged sealed record is Corruption naming it") {
  RP_CONTRACT_USING;
  ContractStores* stores = StoresOf(h, /*raw=*/true);
  if (stores == nullptr) return;
  const std::string key = KeyOf('k');
  for (const auto& [name, spec] : std::vector<std::pair<std::string, OpenSpec>>{
           {"s", {key}},
           {"other-key", {KeyOf('o')}},
           {"same-key", {key}},
           {"plain", {}}}) {
    PutTwinThreads(*Unwrap(stores->Open(name, spec)));
  }
  const std::string before = stores->Records("s");
  for (const RecordKind kind :
       {RecordKind::kCheckpoint, RecordKind::kValue, RecordKind::kWrite}) {
    const RecordRef t_record{kind, "t"};
    const RecordRef u_record{kind, "u"};
    CAPTURE(static_cast<int>(kind));
    const std::string t = stores->Sealed("s", t_record);
    const std::string u = stores->Sealed("s", u_record);
    for (const auto& [damage, bytes] : Damages(*stores, t_record, t, u)) {
      CAPTURE(damage);
      stores->SetSealed("s", t_record, bytes);
      CheckDamaged(*stores, "s", key, t_record);
      stores->SetSealed("s", t_record, t);
    }
    {
      INFO("a plaintext record");
      stores->InjectPlaintext("s", "plain", t_record);
      CheckDamaged(*stores, "s", key, t_record,
                   {"plaintext record in an encrypted"});
      stores->SetSealed("s", t_record, t);
    }
    // Swapped both ways: neither reads.
    stores->SetSealed("s", t_record, u);
    stores->SetSealed("s", u_record, t);
    if (stores->damage_fails_open()) {
      // Named as the first of the two the open replays.
      const Status status = stores->Open("s", {key}).status();
      CheckCorruption(status, {});
      const auto names_all = [&](const RecordRef& record) {
        std::vector<std::string> names = stores->NamesOf(record);
        names.push_back("\"" + record.thread + "\"");
        return std::all_of(names.begin(), names.end(), [&](const auto& name) {
          return status.message().find(name) != std::string::npos;
        });
      };
      CHECK((names_all(t_record) || names_all(u_record)));
    } else {
      std::unique_ptr<Checkpointer> store = Unwrap(stores->Open("s", {key}));
      CheckCorruption(store->GetTuple(Cfg("t", CpId(1))).status(), {"\"t\""});
      CheckCorruption(store->GetTuple(Cfg("u", CpId(1))).status(), {"\"u\""});
    }
    stores->SetSealed("s", t_record, t);
    stores->SetSealed("s", u_record, u);
  }
  CHECK(stores->Records("s") == before);  // restored.
  std::unique_ptr<Checkpointer> store = Unwrap(stores->Open("s", {key}));
  CHECK(ValuesOf(MustGet(*store, Cfg("t", CpId(1))).checkpoint) == "a=t-1");
}

RP_CONTRACT_CASE(
    "contract encryption: copy_thread re-seals, filters decrypt, runs "
    "delete") {
  RP_CONTRACT_USING;
  ContractStores* stores = StoresOf(h);
  if (stores == nullptr) return;
  const std::string key = KeyOf('k');
  {
    std::unique_ptr<Checkpointer> store = Unwrap(stores->Open("s", {key}));
    PutTwinThreads(*store);
    RP_REQUIRE_OK(store->CopyThread("t", "copy"));
  }
  std::unique_ptr<Checkpointer> store = Unwrap(stores->Open("s", {key}));
  std::vector<CheckpointTuple> copied;
  for (CheckpointTuple tuple :
       Collect(*store, ListOf(Cfg("t", std::nullopt, std::nullopt)))) {
    copied.push_back(InThread(std::move(tuple), "copy"));
  }
  REQUIRE(copied.size() == 2);
  CHECK(Collect(*store, ListOf(Cfg("copy", std::nullopt, std::nullopt))) ==
        copied);
  // Metadata filters decrypt, then filter.
  std::vector<std::string> owned_by_t;
  for (const CheckpointTuple& tuple :
       Collect(*store, ListOf(std::nullopt, Meta({{"owner", Value("t")}})))) {
    owned_by_t.push_back(*tuple.config.thread_id + "/" + tuple.checkpoint.id);
  }
  std::sort(owned_by_t.begin(), owned_by_t.end());
  CHECK(owned_by_t == std::vector<std::string>{"copy/cp0001", "t/cp0001"});
  // Compacted where the backend can (JSONL: the copy_thread line becomes
  // records of the copy's own).
  RP_REQUIRE_OK(stores->Compact(*store));
  store.reset();
  if (stores->raw()) {
    // Each record of the copy is sealed under the copy's names.
    for (const RecordKind kind :
         {RecordKind::kCheckpoint, RecordKind::kValue, RecordKind::kWrite}) {
      CAPTURE(static_cast<int>(kind));
      CHECK(stores->Sealed("s", {kind, "copy"}) !=
            stores->Sealed("s", {kind, "t"}));
    }
  }
  store = Unwrap(stores->Open("s", {key}));
  // delete_for_runs by a run_id of sealed metadata: the copy has it too.
  RP_REQUIRE_OK(store->DeleteForRuns({"run-t"}));
  CHECK_FALSE(Get(*store, Cfg("t", CpId(1))).has_value());
  CHECK_FALSE(Get(*store, Cfg("copy", CpId(1))).has_value());
  CHECK(MustGet(*store, Cfg("copy")).checkpoint.id == CpId(2));
  CHECK(MustGet(*store, Cfg("u", CpId(1))).checkpoint.id == CpId(1));
}
