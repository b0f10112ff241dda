// JsonlCheckpointer: a durable store that is one human-readable file, an
// append-only journal of JSON lines (engine/jsonl/FORMAT.md), held in memory
// by the memory backend's structures and rebuilt by replaying the journal
// when it is opened.
//
// One journal per store, not one per thread: a call that touches several
// threads (delete_for_runs, copy_thread) is one group of lines appended at
// once, so it is atomic without a cross-file protocol; thread ids are
// arbitrary bytes (NUL, '/', megabytes long) that need no mapping to file
// names; and a call costs one fdatasync whatever it touches.
//
// Each call appends its lines and a commit line; replay applies a group only
// once its commit line is read whole, so a torn tail (a crash during an
// append) is ignored and reported, never a failed open. With sync_writes a
// call returns after its lines are fdatasync'ed (and the directory fsynced
// when the file was created). Deletes and prunes append one line each.
// Compaction rewrites the journal as a snapshot of the live state (write
// PATH.compact, fsync, rename over PATH, fsync the directory), on demand
// (Compact) and after a call that leaves more dead lines than live ones.
//
// One process at a time: the journal is flock()ed while open (Busy
// otherwise); a read-only open takes no lock, writes nothing, and sees the
// journal as it was when opened.
//
// Encryption at rest (JsonlOptions::encryption, docs/ENCRYPTION.md): in an
// encrypted journal every value, checkpoint and write line carries its
// record's content sealed with AES-256-GCM under the record's name; the
// identifiers that name it stay readable, and the header holds the store's
// id and key check (engine/jsonl/FORMAT.md). The memory structures hold
// plaintext, so reads, filters and maintenance work as in a plaintext store.
//
// Thread-safety: safe to call from many threads; writes are serialized and
// a read never sees a change that is not yet in the journal.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/maintenance.h"

namespace rockpoint {

struct JsonlOptions {
  // The journal file (conventionally NAME.jsonl). Required.
  std::string path;
  // Create the journal if it does not exist. Default: true.
  bool create_if_missing = true;
  // Open for reading only: no lock, nothing written (no torn tail is cut,
  // no compaction); every write call returns InvalidArgument "store opened
  // read-only". Default: false.
  bool read_only = false;
  // fdatasync the journal before a call returns. Default: true.
  bool sync_writes = true;
  // Compact after a call once dead lines exceed live lines and the journal
  // holds at least this many lines; 0 never compacts on its own. Default:
  // 1000.
  uint64_t auto_compact_min_lines = 1000;
  // Input limits. Default: CheckpointerLimits{}.
  CheckpointerLimits limits;
  // Encryption at rest. nullopt: a plaintext store (opening an encrypted
  // journal is InvalidArgument). Set: the store's key; a new journal, or
  // one whose header is its only committed line, becomes an encrypted
  // store. Opening with a wrong key, or a journal holding plaintext lines
  // with a key, is InvalidArgument and changes nothing (Rekey encrypts a
  // plaintext store). Default: nullopt.
  std::optional<EncryptionOptions> encryption;
};

// What the journal holds, and what opening it found.
class JsonlCheckpointer final : public Checkpointer, public Maintenance {
 public:
  // Opens (or creates) the journal at options.path and replays it.
  // Busy if another process has it open read-write; Corruption naming the
  // line for a whole line anywhere that fails its checksum or does not
  // parse, and for a committed line that does not apply; InvalidArgument for a
  // file that is not a rockpoint journal (an export file among them: `rockpoint
  // import` reads those).
  static Result<std::unique_ptr<JsonlCheckpointer>> Open(
      const JsonlOptions& options);
  ~JsonlCheckpointer() override;

  // Rewrites the journal as a snapshot of what it holds (atomically: a
  // crash leaves the old journal or the new one). InvalidArgument when
  // opened read-only.
  Status Compact() override;

  Result<JsonlStats> Stats();

  // The writes whose checkpoint the store does not hold (WriteLocation),
  // in key order.
  Result<std::vector<WriteLocation>> FindOrphanWrites() override;

  // Maintenance (rockpoint/maintenance.h).
  Result<StoreFigures> Figures() override;
  BackendKind backend() const override { return BackendKind::kJsonl; }

  // Rewrites the whole journal at options.path, opened with
  // options.encryption (nullopt: a plaintext store), with every record
  // sealed under `new_encryption`'s key and a new store id (nullopt: in
  // plaintext; a plaintext store is encrypted this way). The journal must
  // exist. Exclusive: it locks the journal as a read-write Open does (Busy
  // while any process, this one included, has it open read-write). Atomic
  // and crash-safe: it writes PATH.compact, syncs it, renames it over the
  // journal and syncs the directory, so after a crash at any point the
  // journal is the old one (under the old key) or the new one (under the
  // new key), never a mix. A torn tail is dropped. Errors as Open's, and
  // InvalidArgument when options.read_only is set; nothing is changed
  // then.
  static Status Rekey(const JsonlOptions& options,
                      const std::optional<EncryptionOptions>& new_encryption);

  class Impl;  // jsonl/*.cpp only.

 private:
  // The backend hooks (rockpoint/checkpointer.h).
  // DoClose syncs the journal, releases the lock and closes the file. Returns
  // the error that stopped the store, if an append failed.
  ROCKPOINT_CHECKPOINTER_HOOKS(, override)
  Maintenance* DoMaintenance() override { return this; }
  explicit JsonlCheckpointer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rockpoint
