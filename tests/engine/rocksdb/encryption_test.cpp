// Encrypted RocksDB stores: nothing of a record's content on disk in the
// clear; a record that is tampered with, truncated, moved to another
// thread or store, or plaintext, is Corruption naming its key in reads and
// in verify; the key is checked at Open; Rekey round trips.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "engine/rocksdb/encryption_test_util.h"
#include "engine/rocksdb/layout_test_util.h"
#include "engine/rocksdb/rocksdb_maintenance.h"

namespace rockpoint::testing {
namespace {

using namespace encryption_test;  // NOLINT: test helpers
using layout_test::S;
using layout_test::T;

std::unique_ptr<RocksDbCheckpointer> Open(const std::string& path,
                                          std::optional<std::string> key) {
  return Unwrap(RocksDbCheckpointer::Open(EncryptedOptions(path, key)));
}

Status OpenStatus(const std::string& path, std::optional<std::string> key) {
  return RocksDbCheckpointer::Open(EncryptedOptions(path, key)).status();
}

std::string RawGet(RocksDbCheckpointer& store, std::string_view family,
                   const std::string& key) {
  std::string value;
  bool found = false;
  RP_REQUIRE_OK(ScanRaw(store, family, key, [&](const RawEntry& entry) {
    if (entry.key == key) {
      value = entry.value;
      found = true;
    }
    return false;
  }));
  REQUIRE_MESSAGE(found, keys::Describe(key));
  return value;
}

bool VerifyFinds(RocksDbCheckpointer& store, const std::string& check,
                 const std::string& key) {
  const VerifyReport report = Unwrap(VerifyStore(store, nullptr));
  for (const VerifyProblem& problem : report.problems) {
    if (problem.check == check && problem.key == keys::Describe(key)) {
      return true;
    }
  }
  return false;
}

TEST_CASE("rocksdb encryption: no record content on disk in the clear") {
  TempDir dir;
  for (const bool encrypted : {true, false}) {
    CAPTURE(encrypted);
    const std::string path = dir.Sub(encrypted ? "sealed" : "plain");
    {
      auto store = Open(path, encrypted ? std::optional(KeyA()) : std::nullopt);
      PutSecrets(*store, "t");
      const CheckpointTuple first = MustGet(*store, Cfg("t", CpId(1)));
      CHECK(first.checkpoint.channel_values.at("a") == Val(kValueSecret));
      CHECK(first.metadata.Find("note")->as_string() == kMetadataSecret);
      REQUIRE(first.pending_writes.size() == 1);
      CHECK(first.pending_writes[0].value == Val(kWriteSecret));
      RP_REQUIRE_OK(store->Compact());
      RP_REQUIRE_OK(store->Close());
    }
    // The plaintext store shows the check can see each secret.
    CHECK(FilesContain(path, kMetadataSecret) == !encrypted);
    CHECK(FilesContain(path, kValueSecret) == !encrypted);
    CHECK(FilesContain(path, kWriteSecret) == !encrypted);
    // Identifiers stay in the clear (keys): the thread id is on disk.
    CHECK(FilesContain(path, "run-t"));
  }
}

// A missing, wrong or malformed key, one from ROCKPOINT_AES_KEY and a key
// for a plaintext store with records: contract_encryption.h.
TEST_CASE("rocksdb encryption: the right key reads everything") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  {
    auto store = Open(path, KeyA());
    PutSecrets(*store, "t");
  }
  auto store = Open(path, KeyA());
  CHECK(MustGet(*store, Cfg("t")).checkpoint.id == CpId(2));
  CHECK(RawGet(*store, "meta", keys::Encode(T({S("format_version")}))) == "5");
}

TEST_CASE("rocksdb encryption: damaged or moved records are Corruption") {
  TempDir dir;
  auto store = Open(dir.Sub("store"), KeyA());
  PutSecrets(*store, "a");
  PutSecrets(*store, "b");
  const std::string record_a =
      keys::Encode(T({S("cp"), S("a"), S(""), CpId(2)}));
  const std::string record_b =
      keys::Encode(T({S("cp"), S("b"), S(""), CpId(2)}));
  const std::string blob_b =
      keys::Encode(T({S("bl"), S("b"), S(""), S("a"), int64_t{2}}));
  const std::string write_b = keys::Encode(
      T({S("wr"), S("b"), S(""), CpId(2), S(""), S("task"), int64_t{0}}));
  const auto check_damaged = [&](std::string_view family,
                                 const std::string& key,
                                 const std::string& check) {
    CheckCorruptionNaming(store->GetTuple(Cfg("b", CpId(2))).status(),
                          keys::Describe(key));
    CHECK(VerifyFinds(*store, check, key));
  };

  SUBCASE("a changed byte") {
    for (const auto& [family, key] :
         {std::pair{"checkpoints", record_b}, std::pair{"blobs", blob_b},
          std::pair{"writes", write_b}}) {
      CAPTURE(family);
      std::string value = RawGet(*store, family, key);
      const std::string original = value;
      value[value.size() / 2] ^= 0x01;
      RP_REQUIRE_OK(PutRawForTesting(*store, family, key, value));
      check_damaged(family, key, "record-authenticates");
      RP_REQUIRE_OK(PutRawForTesting(*store, family, key, original));
      CHECK(store->GetTuple(Cfg("b", CpId(2))).ok());
    }
  }
  SUBCASE("a truncated record") {
    const std::string value = RawGet(*store, "checkpoints", record_b);
    for (const size_t size : {value.size() - 1, size_t{20}, size_t{1}}) {
      CAPTURE(size);
      RP_REQUIRE_OK(PutRawForTesting(*store, "checkpoints", record_b,
                                     value.substr(0, size)));
      check_damaged("checkpoints", record_b, "record-authenticates");
    }
  }
  SUBCASE("a record of another thread") {
    RP_REQUIRE_OK(PutRawForTesting(*store, "checkpoints", record_b,
                                   RawGet(*store, "checkpoints", record_a)));
    check_damaged("checkpoints", record_b, "record-authenticates");
  }
  SUBCASE("a value of another thread") {
    const std::string blob_a =
        keys::Encode(T({S("bl"), S("a"), S(""), S("a"), int64_t{2}}));
    RP_REQUIRE_OK(PutRawForTesting(*store, "blobs", blob_b,
                                   RawGet(*store, "blobs", blob_a)));
    check_damaged("blobs", blob_b, "record-authenticates");
  }
  SUBCASE("a record of another store with the same key") {
    auto other = Open(dir.Sub("other"), KeyA());
    PutSecrets(*other, "b");
    RP_REQUIRE_OK(PutRawForTesting(*store, "checkpoints", record_b,
                                   RawGet(*other, "checkpoints", record_b)));
    check_damaged("checkpoints", record_b, "record-authenticates");
  }
  SUBCASE("a plaintext record") {
    auto plain = Open(dir.Sub("plain"), std::nullopt);
    PutSecrets(*plain, "b");
    RP_REQUIRE_OK(PutRawForTesting(*store, "checkpoints", record_b,
                                   RawGet(*plain, "checkpoints", record_b)));
    const Status status = store->GetTuple(Cfg("b", CpId(2))).status();
    CheckCorruptionNaming(status, keys::Describe(record_b));
    CHECK(status.message().find("plaintext") != std::string::npos);
  }
}

// copy_thread re-seals, filters decrypt, delete_for_runs finds sealed
// run ids: contract_encryption.h.
TEST_CASE(
    "rocksdb encryption: verify finds a copied and run-deleted store sound") {
  TempDir dir;
  auto store = Open(dir.Sub("store"), KeyA());
  PutSecrets(*store, "a");
  RP_REQUIRE_OK(store->CopyThread("a", "copy"));
  RP_REQUIRE_OK(store->DeleteForRuns({"run-a"}));
  CHECK(MustGet(*store, Cfg("copy")).checkpoint.id == CpId(2));
  CHECK(Unwrap(VerifyStore(*store, nullptr)).sound());
}

TEST_CASE("rocksdb encryption: Rekey moves a store between keys") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  PutSecrets(*Open(path, std::nullopt), "t");
  const CheckpointTuple expected = MustGet(*Open(path, std::nullopt), Cfg("t"));
  const auto rekey = [&](std::optional<std::string> from,
                         std::optional<std::string> to) {
    std::optional<EncryptionOptions> next;
    if (to) next = EncryptionOptions{*to};
    RP_REQUIRE_OK(
        RocksDbCheckpointer::Rekey(EncryptedOptions(path, from), next));
    CHECK_FALSE(std::filesystem::exists(path + ".rekey"));
    auto store = Open(path, to);
    CHECK(MustGet(*store, Cfg("t")) == expected);
    CHECK(Collect(*store, ListOf(std::nullopt)).size() == 2);
    CHECK(Unwrap(VerifyStore(*store, nullptr)).sound());
  };
  rekey(std::nullopt, KeyA());
  CHECK(OpenStatus(path, std::nullopt).IsInvalidArgument());
  CHECK_FALSE(FilesContain(path, kValueSecret));
  rekey(KeyA(), KeyB());
  CHECK(OpenStatus(path, KeyA()).IsInvalidArgument());
  // A wrong old key changes nothing.
  CHECK(RocksDbCheckpointer::Rekey(EncryptedOptions(path, KeyA()),
                                   EncryptionOptions{KeyB()})
            .IsInvalidArgument());
  CHECK(Open(path, KeyB()) != nullptr);
  rekey(KeyB(), std::nullopt);
  CHECK(FilesContain(path, kValueSecret));
}

}  // namespace
}  // namespace rockpoint::testing
