// rekey_child_main: the child of encryption_crash_test. Re-keys the RocksDB
// store at <path> from key <old> to key <new> (each "A", "B" or "none",
// encryption_test_util.h's keys), printing READY before and DONE after;
// the parent kills it at a random moment.
//
//   rekey_child_main <store_path> <old> <new>
#include <cstdio>
#include <optional>
#include <string>

#include "engine/rocksdb/crash_writer.h"
#include "engine/rocksdb/encryption_keys.h"

namespace {

std::optional<std::string> KeyNamed(const std::string& name) {
  using namespace rockpoint::testing::encryption_test;
  if (name == "A") return KeyA();
  if (name == "B") return KeyB();
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rockpoint;
  using namespace rockpoint::testing;
  if (argc != 4) {
    std::fprintf(stderr, "usage: rekey_child_main <store_path> <old> <new>\n");
    return 2;
  }
  RocksDbOptions options =
      encryption_test::EncryptedOptions(argv[1], KeyNamed(argv[2]));
  std::optional<EncryptionOptions> next;
  if (auto key = KeyNamed(argv[3])) next = EncryptionOptions{*key};
  Emit("READY\n");
  const Status rekeyed = RocksDbCheckpointer::Rekey(options, next);
  if (!rekeyed.ok()) FailCrashWriter("rekey", rekeyed);
  Emit("DONE\n");
  return 0;
}
