// RetentionCheckpointer: it forwards the whole contract, its sweeper
// applies the policy on schedule at the time of a clock the test controls,
// sweeps racing with writers delete nothing written after they began, and
// Close stops the sweeper.
#include "rockpoint/retention_checkpointer.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "engine/contract_suite.h"
#include "engine/retention_concurrency.h"
#include "rockpoint/memory_checkpointer.h"

namespace {

rockpoint::RetentionPolicy KeepThousand() {
  rockpoint::RetentionPolicy policy;
  policy.keep_last = 1000;
  policy.sweep_interval = std::chrono::milliseconds(1);
  return policy;
}

// A wrapper whose sweeper runs every millisecond with a policy that
// expires nothing the contract cases write.
struct RetentionHarness {
  static constexpr const char* kName = "retention";
  rockpoint::Checkpointer& store() { return *store_; }
  void Reopen() {}

 private:
  std::unique_ptr<rockpoint::RetentionCheckpointer> store_ =
      rockpoint::RetentionCheckpointer::Wrap(
          std::make_unique<rockpoint::MemoryCheckpointer>(),
          {.policy = KeepThousand()})
          .value();
};

}  // namespace

ROCKPOINT_CONTRACT_SUITE(RetentionHarness);

namespace rockpoint {
namespace {

using testing::CpId;
using testing::DoPut;
using testing::Val;

// A clock a test sets, in hours after 2026-11-01T00:00:00Z.
struct TestClock {
  std::atomic<int> hour{0};
  RetentionTime now() const {
    return *ParseCheckpointTs("2026-11-01T00:00:00Z") +
           std::chrono::hours(hour.load());
  }
};

// Puts checkpoints cp0000..cp(n-1) of `thread`, checkpoint i at hour i.
void PutHourly(Checkpointer& store, const std::string& thread, int n) {
  for (int i = 0; i < n; ++i) {
    char ts[32];
    std::snprintf(ts, sizeof(ts), "2026-11-01T%02d:00:00Z", i);
    DoPut(store, {.thread = thread,
                  .id = CpId(i),
                  .parent = i > 0 ? std::optional(CpId(i - 1)) : std::nullopt,
                  .values = {{"v", Val(std::to_string(i))}},
                  .versions = {{"v", int64_t{i + 1}}},
                  .ts = ts});
  }
}

// Waits until the sweeper has finished `sweeps` more sweeps.
void WaitForSweeps(const RetentionCheckpointer& store, uint64_t sweeps) {
  const uint64_t target = store.sweeper_stats().sweeps + sweeps;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (store.sweeper_stats().sweeps < target) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

TEST_CASE("retention checkpointer: a bad policy is refused") {
  MemoryCheckpointer memory;
  auto wrapped = RetentionCheckpointer::Wrap(&memory, {});
  REQUIRE_FALSE(wrapped.ok());
  CHECK(wrapped.status() ==
        Status::InvalidArgument(
            "retention policy sets none of max_idle, max_age and keep_last"));
  CHECK(RetentionCheckpointer::Wrap(std::unique_ptr<Checkpointer>(),
                                    {.policy = KeepThousand()})
            .status() == Status::InvalidArgument("target is null"));
}

TEST_CASE("retention checkpointer: the sweeper expires as the clock moves") {
  MemoryCheckpointer memory;
  TestClock clock;
  RetentionPolicy policy;
  policy.max_age = std::chrono::hours(3);
  policy.sweep_interval = std::chrono::milliseconds(2);
  auto store = RetentionCheckpointer::Wrap(
                   &memory, {.policy = policy,
                             .clock = [&clock] { return clock.now(); }})
                   .value();
  PutHourly(*store, "t", 10);
  WaitForSweeps(*store, 2);
  CHECK(testing::Collect(*store, {}).size() == 10);  // hour 0: nothing old.

  clock.hour = 8;  // older than hour 5 expires: cp0000..cp0004.
  WaitForSweeps(*store, 2);
  CHECK(testing::Keys(testing::Collect(*store, {})) ==
        "t/cp0009 t/cp0008 t/cp0007 t/cp0006 t/cp0005");
  const SweeperStats stats = store->sweeper_stats();
  CHECK(stats.failed_sweeps == 0);
  CHECK(stats.last_status.ok());
  CHECK(stats.expired.checkpoints_expired == 5);

  // A dry sweep on demand reports without deleting or counting.
  clock.hour = 20;
  const RetentionReport dry = store->SweepNow(/*dry_run=*/true).value();
  CHECK(dry.checkpoints_expired == 5);
  CHECK(store->sweeper_stats().expired.checkpoints_expired == 5);
  RP_REQUIRE_OK(store->Close());
  // Closed: the sweeper stopped, and the store under it is closed.
  const uint64_t sweeps = store->sweeper_stats().sweeps;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(store->sweeper_stats().sweeps == sweeps);
  CHECK(memory.GetTuple(testing::Cfg("t")).status() ==
        Status::Aborted("store is closed"));
}

TEST_CASE(
    "retention checkpointer: failed sweeps are recorded, later ones run") {
  auto owned = std::make_unique<MemoryCheckpointer>();
  MemoryCheckpointer* memory = owned.get();
  RetentionPolicy policy;
  policy.keep_last = 1;
  policy.sweep_interval = std::chrono::milliseconds(1);
  auto store =
      RetentionCheckpointer::Wrap(std::move(owned), {.policy = policy}).value();
  RP_REQUIRE_OK(memory->Close());
  WaitForSweeps(*store, 2);
  const SweeperStats stats = store->sweeper_stats();
  CHECK(stats.failed_sweeps >= 2);
  CHECK(stats.last_status == Status::Aborted("store is closed"));
}

TEST_CASE("retention checkpointer: sweeps racing writers keep fresh writes") {
  MemoryCheckpointer memory;
  testing::CheckSweepsRacingWriters(memory);
}

}  // namespace
}  // namespace rockpoint
