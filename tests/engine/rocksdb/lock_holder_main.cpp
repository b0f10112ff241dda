// lock_holder_main: the second process of lock_test. Each mode reports on
// stdout, one line per step; a status is "OK" or Status::ToString().
//
//   lock_holder_main open <path>
//       read-write open, then close:  "OPEN <status>"
//   lock_holder_main read <path> <thread_id>
//       read-only open:               "OPEN <status>"
//       latest of the thread:         "LATEST <checkpoint_id>" | "LATEST none"
//       a put (must be refused):      "PUT <status>"
//   lock_holder_main hold <path> <thread_id>
//       read-write open:              "OPEN <status>"
//       a root put "held-1", synced:  "PUT <status>"
//       then                          "HELD"
//       waits for EOF on stdin, closes the store: "RELEASED"
// Exit status 0 when every line was printed, 2 on bad usage.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "engine/rocksdb/rocksdb_checkpointer.h"

namespace rockpoint {
namespace {

void Say(const std::string& line) {
  std::fputs((line + "\n").c_str(), stdout);
  std::fflush(stdout);
}

std::string Describe(const Status& status) {
  return status.ok() ? "OK" : status.ToString();
}

Status PutRoot(Checkpointer* store, const std::string& thread_id,
               const std::string& id) {
  Checkpoint checkpoint;
  checkpoint.id = id;
  checkpoint.ts = "2024-05-01T00:00:00Z";
  checkpoint.channel_values["owner"] = {"bytes", "lock_holder_main"};
  checkpoint.channel_versions["owner"] = int64_t{1};
  auto put = store->Put({thread_id, "", std::nullopt}, checkpoint,
                        Value::MakeMap(), {{"owner", int64_t{1}}});
  return put.status();
}

int Main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: lock_holder_main open|read|hold <path> ...\n");
    return 2;
  }
  const std::string mode = argv[1];
  RocksDbOptions options;
  options.path = argv[2];
  options.create_if_missing = mode == "hold";
  options.read_only = mode == "read";
  if ((mode == "read" || mode == "hold") && argc != 4) return 2;
  if (mode != "open" && mode != "read" && mode != "hold") return 2;

  auto opened = RocksDbCheckpointer::Open(options);
  Say("OPEN " + Describe(opened.status()));
  if (!opened.ok()) return 0;
  std::unique_ptr<RocksDbCheckpointer> store = std::move(opened).value();
  if (mode == "open") return 0;

  const std::string thread_id = argv[3];
  if (mode == "read") {
    auto latest = store->GetTuple({thread_id, "", std::nullopt});
    if (!latest.ok()) {
      Say("LATEST " + latest.status().ToString());
    } else {
      Say("LATEST " + (latest->has_value()
                           ? (*latest)->config.checkpoint_id.value_or("")
                           : std::string("none")));
    }
    Say("PUT " + Describe(PutRoot(store.get(), thread_id, "from-reader")));
    return 0;
  }

  Say("PUT " + Describe(PutRoot(store.get(), thread_id, "held-1")));
  Say("HELD");
  char buffer[256];
  while (::read(STDIN_FILENO, buffer, sizeof(buffer)) > 0) {
  }
  store.reset();
  Say("RELEASED");
  return 0;
}

}  // namespace
}  // namespace rockpoint

int main(int argc, char** argv) { return rockpoint::Main(argc, argv); }
