// Rekey under SIGKILL: a child process (jsonl_rekey_writer_main) rekeys a
// JSONL journal back and forth between two keys until the parent kills it
// at a random moment, often while the new journal is being written, synced
// or renamed. After every kill the journal must open under exactly one of
// the two keys, with every record as it was (a mix of old and new lines
// would not open under either), and a read-write open must remove a
// leftover PATH.compact.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/rocksdb/chain_workload.h"
#include "engine/rocksdb/crash_checks.h"
#include "engine/rocksdb/crash_protocol.h"
#include "engine/rocksdb/process_helpers.h"
#include "rockpoint/encryption.h"

namespace rockpoint::testing {
namespace {

// Even rounds kill at a random moment, odd ones while the new journal is
// being written (KillAt).
constexpr int kRounds = 12;
constexpr int64_t kPutsPerChain = 12;

const std::string kRekeyBinary =
    std::string(ROCKPOINT_TEST_BINARY_DIR) + "/jsonl_rekey_writer_main";
const std::string kKeyA(32, 'A');
const std::string kKeyB(32, 'B');

JsonlOptions Under(const std::string& path, const std::string& key,
                   bool read_only) {
  JsonlOptions options;
  options.path = path;
  options.read_only = read_only;
  options.encryption = EncryptionOptions{key};
  return options;
}

// Everything the store holds: every tuple of every thread, hidden ones
// included, and the thread index.
struct Dump {
  std::vector<std::vector<CheckpointTuple>> tuples;
  std::vector<ThreadInfo> threads;
  friend bool operator==(const Dump&, const Dump&) = default;
};

Dump DumpOf(Checkpointer& store, const std::vector<Chain>& chains) {
  Dump dump;
  for (const Chain& chain : chains) {
    ListOptions options;
    options.config = CheckpointConfig{chain.thread_id, chain.ns, std::nullopt};
    options.include_hidden = true;
    auto tuples = store.ListAll(options);
    REQUIRE_MESSAGE(tuples.ok(), tuples.status().ToString());
    dump.tuples.push_back(std::move(tuples).value());
  }
  auto page = store.ListThreads({});
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  dump.threads = page->threads;
  return dump;
}

// Fills a new journal under key A with the crash chains, a hidden
// checkpoint among them.
Dump Fill(const std::string& path, const std::vector<Chain>& chains) {
  auto opened = JsonlCheckpointer::Open(Under(path, kKeyA, false));
  REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
  JsonlCheckpointer& store = **opened;
  for (const Chain& chain : chains) {
    for (int64_t n = 1; n <= kPutsPerChain; ++n) {
      CheckpointConfig parent = ChainConfig(chain, n - 1);
      auto put = store.Put(parent, ChainCheckpoint(chain, n),
                           ChainMetadata(chain, n), ChainNewVersions(chain, n));
      REQUIRE_MESSAGE(put.ok(), put.status().ToString());
      Status writes =
          store.PutWrites(ChainConfig(chain, n), ChainWrites(chain, n),
                          ChainTaskId(n), kChainTaskPath);
      REQUIRE_MESSAGE(writes.ok(), writes.ToString());
    }
  }
  Status hidden = store.HideCheckpoint(ChainConfig(chains[0], 3));
  REQUIRE_MESSAGE(hidden.ok(), hidden.ToString());
  Dump dump = DumpOf(store, chains);
  REQUIRE(store.Close().ok());
  return dump;
}

// How long one Rekey of the journal at `path` takes here: two rekeys
// (A to B, B to A) timed, the journal left under A.
std::chrono::microseconds TimeRekey(const std::string& path) {
  const auto start = ChildProcess::Clock::now();
  Status status = JsonlCheckpointer::Rekey(Under(path, kKeyA, false),
                                           EncryptionOptions{kKeyB});
  REQUIRE_MESSAGE(status.ok(), status.ToString());
  status = JsonlCheckpointer::Rekey(Under(path, kKeyB, false),
                                    EncryptionOptions{kKeyA});
  REQUIRE_MESSAGE(status.ok(), status.ToString());
  return std::chrono::duration_cast<std::chrono::microseconds>(
             ChildProcess::Clock::now() - start) /
         2;
}

// When the parent kills the child.
enum class KillAt {
  // A random moment within one or two rekeys' time.
  kRandom,
  // Soon after PATH.compact appears: while the new journal is written,
  // synced or renamed (a random moment within a twentieth of a rekey's time).
  kNewJournal,
};

// Runs the child until it acknowledged 0 or 1 rekeys, then until `kill_at`,
// and kills it; returns the rekeys it acknowledged.
int RunKilledRekeyer(const std::string& path, std::chrono::microseconds rekey,
                     KillAt kill_at, std::mt19937_64* rng) {
  std::string error;
  auto child = ChildProcess::Spawn(
      kRekeyBinary,
      {path, FormatEncryptionKey(kKeyA), FormatEncryptionKey(kKeyB)},
      /*pipe_stdin=*/false, &error);
  REQUIRE_MESSAGE(child.has_value(), error);
  const auto next_line = [&]() -> std::string {
    auto line = child->ReadLine(kCrashHangGuard);
    if (!line.has_value()) {  // see RunKilledWriter: no lazy Wait().
      child->Kill(SIGKILL);
      FAIL("rekeyer stopped: " << DescribeWaitStatus(child->Wait()));
    }
    return *line;
  };
  REQUIRE(next_line() == "READY");
  std::vector<std::string> lines;
  const size_t wait_for = std::uniform_int_distribution<size_t>(0, 1)(*rng);
  while (lines.size() < wait_for) lines.push_back(next_line());
  const auto random_part = [&](int64_t micros) {
    return std::chrono::microseconds(
        std::uniform_int_distribution<int64_t>(0, micros)(*rng));
  };
  if (kill_at == KillAt::kNewJournal) {
    const auto give_up = ChildProcess::Clock::now() + kCrashHangGuard;
    while (!std::filesystem::exists(path + ".compact") &&
           ChildProcess::Clock::now() < give_up) {
    }
  }
  const auto deadline =
      ChildProcess::Clock::now() + random_part(kill_at == KillAt::kNewJournal
                                                   ? rekey.count() / 20
                                                   : 2 * rekey.count());
  while (auto line = child->ReadLineUntil(deadline)) lines.push_back(*line);
  child->Kill(SIGKILL);
  for (std::string& line : child->ReadRemainingLines(kCrashHangGuard)) {
    lines.push_back(std::move(line));
  }
  const int status = child->Wait();
  CHECK_MESSAGE((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL),
                "rekeyer " << DescribeWaitStatus(status));
  for (const std::string& line : lines) {
    CHECK_MESSAGE(line.rfind("K ", 0) == 0, "unexpected line: " << line);
  }
  return static_cast<int>(lines.size());
}

TEST_CASE(
    "jsonl encryption: a SIGKILLed Rekey leaves the journal whole under the "
    "old key or the new one") {
  const uint64_t seed = Seed();
  INFO("seed " << seed << " (set ROCKPOINT_CRASH_SEED to replay)");
  std::mt19937_64 rng(seed);
  TempDir dir("jsonl-rekey-crash");
  REQUIRE(dir.ok());
  const std::string path = dir.Sub("store.jsonl");
  const std::vector<Chain> chains = CrashChains("rekey");
  const Dump expected = Fill(path, chains);
  const std::chrono::microseconds rekey = TimeRekey(path);
  int acked = 0;
  int killed_mid_write = 0;
  int unacknowledged_done = 0;  // a rekey finished, killed before its ack.
  bool under_a_before = true;   // TimeRekey left the journal under A.

  for (int round = 0; round < kRounds; ++round) {
    CAPTURE(round);
    const int acks = RunKilledRekeyer(
        path, rekey, round % 2 == 0 ? KillAt::kRandom : KillAt::kNewJournal,
        &rng);
    acked += acks;
    if (std::filesystem::exists(path + ".compact")) ++killed_mid_write;
    // Read-only first: nothing is repaired before both keys are tried.
    auto under_a = JsonlCheckpointer::Open(Under(path, kKeyA, true));
    auto under_b = JsonlCheckpointer::Open(Under(path, kKeyB, true));
    REQUIRE_MESSAGE(under_a.ok() != under_b.ok(),
                    "A: " << under_a.status().ToString()
                          << "; B: " << under_b.status().ToString());
    const auto& wrong = under_a.ok() ? under_b : under_a;
    CAPTURE(wrong.status().ToString());
    CHECK(wrong.status().IsInvalidArgument());
    const std::string& key = under_a.ok() ? kKeyA : kKeyB;
    // Each acknowledged rekey switched the key; one more may have finished.
    if (under_a.ok() != (under_a_before != (acks % 2 == 1))) {
      ++unacknowledged_done;
    }
    under_a_before = under_a.ok();
    auto opened = JsonlCheckpointer::Open(Under(path, key, false));
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    CHECK_FALSE(std::filesystem::exists(path + ".compact"));
    CHECK(DumpOf(**opened, chains) == expected);
    REQUIRE((*opened)->Close().ok());
  }
  MESSAGE("jsonl rekey crash rounds "
          << kRounds << " (a rekey takes " << rekey.count() << " us): " << acked
          << " acknowledged rekeys; " << killed_mid_write
          << " kills left PATH.compact behind, " << unacknowledged_done
          << " came after an unacknowledged rekey finished");
  CHECK(acked > 0);
}

}  // namespace
}  // namespace rockpoint::testing
