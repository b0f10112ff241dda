// A journal a live process holds (store_writer_main) is Busy for
// this one; readers take no lock. (Durability under SIGKILL: the contract's
// kill case, contract_kill.h, runs that writer.)
#include <doctest/doctest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/rocksdb/chain_workload.h"
#include "engine/rocksdb/crash_checks.h"
#include "engine/rocksdb/crash_protocol.h"
#include "engine/rocksdb/process_helpers.h"

namespace rockpoint::testing {
namespace {

const std::string kWriterBinary =
    std::string(ROCKPOINT_TEST_BINARY_DIR) + "/store_writer_main";

JsonlOptions JournalOptions(const std::string& path) {
  JsonlOptions options;
  options.path = path;
  options.sync_writes = true;
  return options;
}

TEST_CASE("jsonl: a journal another process has open is Busy") {
  TempDir dir("jsonl-busy");
  REQUIRE(dir.ok());
  const std::string path = dir.Sub("store.jsonl");
  std::string error;
  auto child =
      ChildProcess::Spawn(kWriterBinary, {"jsonl:" + path, "jsonl-busy"},
                          /*pipe_stdin=*/false, &error);
  REQUIRE_MESSAGE(child.has_value(), error);
  auto ready = child->ReadLine(kCrashHangGuard);
  if (!ready.has_value()) {  // see RunKilledWriter: no lazy Wait().
    child->Kill(SIGKILL);
    FAIL("writer did not start: " << DescribeWaitStatus(child->Wait()));
  }
  REQUIRE(*ready == "READY");

  auto busy = JsonlCheckpointer::Open(JournalOptions(path));
  CAPTURE(busy.status().ToString());
  CHECK(busy.status().IsBusy());
  JsonlOptions read_only = JournalOptions(path);
  read_only.read_only = true;
  CHECK(JsonlCheckpointer::Open(read_only).ok());  // readers take no lock.

  child->Kill(SIGKILL);
  child->Wait();
  auto opened = JsonlCheckpointer::Open(JournalOptions(path));
  CHECK_MESSAGE(opened.ok(), opened.status().ToString());
}

}  // namespace
}  // namespace rockpoint::testing
