// Child of postgres_concurrency_test: one writer process. Usage:
//   postgres_writer_main URL WRITER ROUNDS
// Each round puts one checkpoint (and one write) on each of the shared
// threads "shared-0".."shared-3" and on its own threads "own-W-0".."own-W-3",
// chaining each thread's checkpoints of this writer by parent. Prints
// "ack THREAD CHECKPOINT_ID" once put and put_writes both returned OK, and
// exits 0; a failed call prints "error MESSAGE" on stderr and exits 1.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "engine/postgres/postgres_checkpointer.h"
#include "engine/store_builders.h"

namespace {

using rockpoint::Checkpoint;
using rockpoint::CheckpointConfig;
using rockpoint::Status;

constexpr int kThreadsPerKind = 4;

[[noreturn]] void Fail(const Status& status) {
  std::fprintf(stderr, "error %s\n", status.ToString().c_str());
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: postgres_writer_main URL WRITER ROUNDS\n");
    return 2;
  }
  rockpoint::PostgresOptions options;
  options.url = argv[1];
  options.pool_size = 2;
  const std::string writer = argv[2];
  const int rounds = std::atoi(argv[3]);
  auto opened = rockpoint::PostgresCheckpointer::Open(options);
  if (!opened.ok()) Fail(opened.status());
  rockpoint::Checkpointer& store = **opened;

  std::map<std::string, std::string> last;  // thread -> this writer's last.
  for (int round = 0; round < rounds; ++round) {
    for (int k = 0; k < 2 * kThreadsPerKind; ++k) {
      const std::string thread =
          k < kThreadsPerKind
              ? "shared-" + std::to_string(k)
              : "own-" + writer + "-" + std::to_string(k - kThreadsPerKind);
      char id[64];
      std::snprintf(id, sizeof id, "r%06d-w%s", round, writer.c_str());
      Checkpoint checkpoint = rockpoint::testing::MakeCheckpoint(
          id, {{"c", rockpoint::testing::Val(thread + "@" + id)}},
          {{"c", std::string(id)}});
      CheckpointConfig parent{thread, std::string(), std::nullopt};
      if (last.contains(thread)) parent.checkpoint_id = last[thread];
      auto put = store.Put(
          parent, checkpoint,
          rockpoint::testing::Meta({{"writer", rockpoint::Value(writer)}}),
          checkpoint.channel_versions);
      if (!put.ok()) Fail(put.status());
      Status writes = store.PutWrites(
          *put, {rockpoint::testing::W("c", "w@" + std::string(id))}, "task");
      if (!writes.ok()) Fail(writes);
      last[thread] = id;
      std::printf("ack %s %s\n", thread.c_str(), id);
      std::fflush(stdout);
    }
  }
  Status closed = store.Close();
  if (!closed.ok()) Fail(closed);
  return 0;
}
