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
// Private to engine/jsonl/ and its tests: everything else opens a store
// through rockpoint::Open (rockpoint/open.h).
//
// Thread-safety: safe to call from many threads; writes are serialized and
// a read never sees a change that is not yet in the journal.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/jsonl/journal_file.h"
#include "engine/jsonl/journal_open.h"
#include "engine/jsonl/jsonl_options.h"
#include "engine/memory_ops.h"
#include "engine/record_cipher.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/maintenance.h"

namespace rockpoint {

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

 private:
  // The backend hooks (rockpoint/checkpointer.h).
  // DoClose syncs the journal, releases the lock and closes the file. Returns
  // the error that stopped the store, if an append failed.
  ROCKPOINT_CHECKPOINTER_HOOKS(, override)
  Maintenance* DoMaintenance() override { return this; }
  JsonlCheckpointer(JsonlOptions options, jsonl::OpenedJournal journal);

  // Runs `read` on the structures if the store is readable.
  template <typename Read>
  auto WithThreads(Read read) -> decltype(read(memory::Threads())) {
    base::MutexLock lock(&mu_);
    RP_RETURN_IF_ERROR(CheckReadable());
    return read(threads_);
  }

  // What a change did to the live lines: added this many records, or
  // (nullopt) removed some, so they are counted again.
  using LiveChange = std::optional<uint64_t>;

  // Applies a change to the structures, then appends its journal `lines`
  // and a commit line (synced with sync_writes). A change that `apply`
  // refuses is returned as is, with nothing written. If the append fails
  // after the change was applied, the store stops: every later call returns
  // that error until it is reopened from the journal.
  Status Change(
      std::string lines,
      const std::function<Result<LiveChange>(memory::Threads&)>& apply);

  // Change, for a change whose journal lines depend on what is stored:
  // `apply` sets them (its second argument). Nothing is written when it
  // refuses the change or sets no line.
  Status ChangeWriting(
      const std::function<Result<LiveChange>(memory::Threads&, std::string&)>&
          apply);

  uint64_t memory_live_lines() const NO_THREAD_SAFETY_ANALYSIS;
  Status CheckReadable() const REQUIRES(mu_);
  Status CheckWritable() const REQUIRES(mu_);
  // Compacts once dead lines outweigh live ones. A failed compaction leaves
  // the journal as it was (the call it follows is already durable); the
  // next call that meets the condition tries again.
  void MaybeCompact() REQUIRES(mu_);
  Status CompactLocked() REQUIRES(mu_);

  const JsonlOptions options_;
  const StoredEncryption encryption_;  // what the journal's header holds.
  // Seals the record lines of an encrypted store; null for a plaintext one.
  const std::unique_ptr<RecordCipher> cipher_;
  base::Mutex mu_;
  // Null once closed.
  std::unique_ptr<jsonl::JournalFile> file_ GUARDED_BY(mu_);
  memory::Threads threads_ GUARDED_BY(mu_);
  uint64_t lines_ GUARDED_BY(mu_);
  uint64_t live_lines_ GUARDED_BY(mu_);
  int64_t version_ GUARDED_BY(mu_);  // header.version of the journal.
  const uint64_t torn_tail_bytes_;
  const uint64_t torn_tail_bytes_cut_;
  uint64_t compactions_ GUARDED_BY(mu_) = 0;
  Status stopped_ GUARDED_BY(mu_);  // set when an append failed.
};

}  // namespace rockpoint
