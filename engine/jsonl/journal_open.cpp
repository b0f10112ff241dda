// Opening a journal and settling its encryption (journal_open.h).
#include "engine/jsonl/journal_open.h"

#include <string>
#include <utility>

#include "engine/jsonl/journal_lines.h"

namespace rockpoint::jsonl {

Result<OpenedJournal> OpenJournal(const JsonlOptions& options, Repair repair) {
  // A journal this open creates starts with the header of the store the
  // options describe: for an encrypted one, a new store id and key check.
  StoredEncryption fresh;
  RP_RETURN_IF_ERROR(OpenStoreCipher(options.encryption, StoredEncryption{},
                                     /*store_has_records=*/false, &fresh)
                         .status());
  OpenedJournal journal;
  RP_ASSIGN_OR_RETURN(
      journal.file,
      JournalFile::Open(options.path,
                        options.read_only ? JournalFile::Mode::kReadOnly
                                          : JournalFile::Mode::kReadWrite,
                        options.create_if_missing, HeaderLine(fresh)));
  RP_ASSIGN_OR_RETURN(const std::string content, journal.file->ReadAll());
  RP_ASSIGN_OR_RETURN(const JournalHead head, ReadHead(content, options.path));
  // A journal whose header is its only committed line holds no record: a
  // key given for it makes it an encrypted store (to_store).
  StoredEncryption to_store;
  RP_ASSIGN_OR_RETURN(journal.cipher,
                      OpenStoreCipher(options.encryption, head.encryption,
                                      head.has_committed_lines, &to_store));
  RP_ASSIGN_OR_RETURN(
      const ReplayResult replay,
      Replay(content, options.path, journal.cipher.get(), &journal.threads));
  journal.encryption = to_store.encrypted() ? to_store : head.encryption;
  journal.lines = replay.committed_lines;
  journal.version = head.version;
  journal.torn_tail_bytes = replay.torn_tail_bytes;
  if (options.read_only || repair == Repair::kNone) return journal;
  if (!replay.has_header || to_store.encrypted()) {
    // A creation that stopped before its header was whole, or a journal
    // without records that is being encrypted: it holds nothing but (at
    // most) a torn tail; start over with the header the store needs.
    RP_RETURN_IF_ERROR(journal.file->Replace(HeaderLine(journal.encryption)));
    journal.lines = 1;
    journal.version = kJournalFormatVersion;
  } else if (replay.torn_tail_bytes > 0) {
    RP_RETURN_IF_ERROR(journal.file->Truncate(replay.committed_bytes));
  }
  journal.torn_tail_bytes_cut = replay.torn_tail_bytes;
  return journal;
}

}  // namespace rockpoint::jsonl
