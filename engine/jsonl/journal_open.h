// Opening a JSONL store's journal (engine/jsonl/FORMAT.md): lock and read
// it, decide its store's cipher from its header and the caller's
// EncryptionOptions (OpenStoreCipher), replay it, and, unless told not to,
// repair what an interrupted writer left (a torn tail, a partial header) and
// write the header of an empty journal that is being encrypted.
//
// Thread-safety: none; each call works on its own journal.
#pragma once

#include <cstdint>
#include <memory>

#include "engine/jsonl/journal_file.h"
#include "engine/jsonl/jsonl_options.h"
#include "engine/memory_ops.h"
#include "engine/record_cipher.h"
#include "rockpoint/status.h"

namespace rockpoint::jsonl {

struct OpenedJournal {
  std::unique_ptr<JournalFile> file;
  memory::Threads threads;
  // What the journal's header holds (or, read-only, would hold once
  // written): empty for a plaintext store.
  StoredEncryption encryption;
  std::unique_ptr<RecordCipher> cipher;  // null for a plaintext store.
  uint64_t lines = 0;  // the journal's lines, header included.
  // header.version: every line the store appends ends with its checksum
  // member when it is 3 (WithLineChecksums), in the journal's own version
  // otherwise (a compaction writes version 3).
  int64_t version = 0;
  uint64_t torn_tail_bytes = 0;      // found after the last commit line.
  uint64_t torn_tail_bytes_cut = 0;  // of those, cut off by this open.
};

// What a journal open writes before the store is used (read-write only).
enum class Repair {
  // Cut a torn tail; rewrite a partial header, or the plaintext header of
  // a journal without lines opened with a key, as the header the store
  // needs.
  kRepair,
  // Write nothing: the caller replaces the whole journal (Rekey).
  kNone,
};

// Opens options.path as JsonlCheckpointer::Open documents: Busy, NotFound,
// InvalidArgument for a file that is not a journal and for a key that does
// not fit the store (no key for an encrypted store, a wrong key, a key for
// a store holding plaintext lines), Corruption "<path>: line N: ..." for a
// committed line that does not parse, open or apply. Nothing is written
// when it fails.
Result<OpenedJournal> OpenJournal(const JsonlOptions& options, Repair repair);

}  // namespace rockpoint::jsonl
