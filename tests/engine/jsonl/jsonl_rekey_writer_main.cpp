// jsonl_rekey_writer_main: the child of jsonl_rekey_crash_test. Rekeys a
// JSONL journal back and forth between two keys until it is killed:
// starting under whichever of the two opens it, each round rewrites it
// under the other (JsonlCheckpointer::Rekey). One line per event, each in a
// single write(2):
//   READY        started, about to rekey;
//   K <n> <A|B>  rekey n returned ok: the journal is under key A or B.
// Any failure prints the status to stderr and exits 3.
//
//   jsonl_rekey_writer_main <journal_path> <key A hex> <key B hex>
#include <cstdio>
#include <optional>
#include <string>

#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/rocksdb/crash_writer.h"
#include "rockpoint/encryption.h"

namespace {

using namespace rockpoint;           // NOLINT: a test program
using namespace rockpoint::testing;  // NOLINT

EncryptionOptions KeyOf(const char* hex) {
  Result<std::string> key = ParseEncryptionKey(hex);
  if (!key.ok()) FailCrashWriter("key", key.status());
  return EncryptionOptions{*key};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr,
                 "usage: jsonl_rekey_writer_main <journal_path> <key A hex> "
                 "<key B hex>\n");
    return 2;
  }
  const EncryptionOptions keys[2] = {KeyOf(argv[2]), KeyOf(argv[3])};
  JsonlOptions options;
  options.path = argv[1];
  Emit("READY\n");
  int current = 0;  // the key the journal is under: A, else B.
  for (int64_t n = 1;; ++n) {
    options.encryption = keys[current];
    Status status = JsonlCheckpointer::Rekey(options, keys[1 - current]);
    if (n == 1 && status.IsInvalidArgument()) {
      // The last round left the journal under the other key.
      current = 1 - current;
      options.encryption = keys[current];
      status = JsonlCheckpointer::Rekey(options, keys[1 - current]);
    }
    if (!status.ok()) FailCrashWriter("rekey " + std::to_string(n), status);
    current = 1 - current;
    Emit("K " + std::to_string(n) + (current == 0 ? " A\n" : " B\n"));
  }
}
