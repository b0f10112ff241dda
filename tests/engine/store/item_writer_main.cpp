// The child of store_kill_test.cpp: writes to an item store with synced
// writes and prints one line per acknowledged call, so the parent can kill
// it at any moment and check that every acknowledged change survived.
//
//   item_writer_main DIR puts START   puts ("kill","puts")/"k<i>" = {"i": i}
//                                     for i = START, START+1, ...; prints
//                                     "P <i>" after each put returns
//   item_writer_main DIR sweep START  the same puts, each with 20 items of
//                                     ("kill","ttl") that live one minute,
//                                     on a clock that advances two minutes
//                                     per put; every third put a sweep (in
//                                     atomic batches of 7); prints "P <i>"
//                                     per put and "S <n>" per sweep
//   item_writer_main DIR both START   the puts of `puts`, each after a
//                                     checkpoint "c<i>" (20 digits) of
//                                     thread "kill" in a checkpoint store
//                                     open in the same directory
//
// Prints "READY" once the store is open. Exits 1 with a message on stderr
// at the first error.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/store/kill_checkpoint_id.h"
#include "rockpoint/open.h"
#include "rockpoint/store.h"

namespace {

using rockpoint::ItemTtl;
using rockpoint::PutOp;
using rockpoint::serde::Value;

void Say(const std::string& line) {
  const std::string text = line + "\n";
  if (::write(1, text.data(), text.size()) !=
      static_cast<ssize_t>(text.size())) {
    std::_Exit(1);
  }
}

int Fail(const rockpoint::Status& status) {
  std::fprintf(stderr, "item_writer_main: %s\n", status.ToString().c_str());
  return 1;
}

PutOp Item(const std::string& label, const std::string& key, int64_t i) {
  PutOp put;
  put.ns = {"kill", label};
  put.key = key;
  put.value = Value(Value::Map{{"i", i}});
  return put;
}

rockpoint::Status PutCheckpoint(rockpoint::Checkpointer& checkpoints,
                                int64_t i) {
  rockpoint::CheckpointConfig config;
  config.thread_id = "kill";
  rockpoint::Checkpoint checkpoint;
  checkpoint.id = rockpoint::store_testing::KillCheckpointId(i);
  checkpoint.ts = "2024-01-01T00:00:00+00:00";
  return checkpoints
      .Put(config, checkpoint, Value(Value::Map{}),
           rockpoint::ChannelVersions{})
      .status();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: item_writer_main DIR puts|sweep|both START\n");
    return 2;
  }
  const std::string mode = argv[2];
  const bool sweep = mode == "sweep";
  rockpoint::StoreOpenOptions options;
  options.ttl.sweep_batch_size = 7;
  // In sweep mode the store's clock advances two minutes per put, so the
  // one-minute items of one put have expired by the next sweep.
  int64_t simulated_us =
      std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count();
  if (sweep) options.clock = [&simulated_us] { return simulated_us; };
  std::unique_ptr<rockpoint::Checkpointer> checkpoints;
  if (mode == "both") {
    auto opened = rockpoint::Open(argv[1]);
    if (!opened.ok()) return Fail(opened.status());
    checkpoints = std::move(opened).value();
  }
  auto store = rockpoint::OpenStore(argv[1], options);
  if (!store.ok()) return Fail(store.status());
  Say("READY");
  for (int64_t i = std::atoll(argv[3]);; ++i) {
    std::vector<rockpoint::StoreOp> ops = {
        Item("puts", "k" + std::to_string(i), i)};
    if (sweep) {
      for (int j = 0; j < 20; ++j) {
        PutOp expiring =
            Item("ttl", "e" + std::to_string(i) + "-" + std::to_string(j), i);
        expiring.ttl = ItemTtl::Minutes(1);
        ops.push_back(std::move(expiring));
      }
    }
    simulated_us += int64_t{120} * 1000000;
    if (checkpoints) {
      rockpoint::Status put = PutCheckpoint(*checkpoints, i);
      if (!put.ok()) return Fail(put);
    }
    auto done = (*store)->Batch(ops);
    if (!done.ok()) return Fail(done.status());
    Say("P " + std::to_string(i));
    if (sweep && i % 3 == 0) {
      auto swept = (*store)->SweepExpired();
      if (!swept.ok()) return Fail(swept.status());
      Say("S " + std::to_string(*swept));
    }
  }
}
