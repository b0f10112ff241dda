// ForwardingCheckpointer: over the memory backend it passes the contract
// suite (every call forwarded), both owning and borrowing its target; a
// wrapper that overrides one method changes only that one.
#include "rockpoint/forwarding_checkpointer.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <utility>

#include "engine/contract_suite.h"
#include "rockpoint/memory_checkpointer.h"

namespace {

// Owns its target.
struct ForwardingHarness {
  static constexpr const char* kName = "forwarding";
  rockpoint::Checkpointer& store() { return store_; }
  void Reopen() {}

 private:
  rockpoint::ForwardingCheckpointer store_{
      std::make_unique<rockpoint::MemoryCheckpointer>()};
};

// Borrows its target.
struct BorrowingHarness {
  static constexpr const char* kName = "forwarding-borrowed";
  rockpoint::Checkpointer& store() { return store_; }
  void Reopen() {}

 private:
  rockpoint::MemoryCheckpointer target_;
  rockpoint::ForwardingCheckpointer store_{&target_};
};

}  // namespace

ROCKPOINT_CONTRACT_SUITE(ForwardingHarness);
ROCKPOINT_CONTRACT_SUITE(BorrowingHarness);

namespace rockpoint {
namespace {

// Counts Put calls and forwards everything.
class CountingCheckpointer final : public ForwardingCheckpointer {
 public:
  using ForwardingCheckpointer::ForwardingCheckpointer;
  int puts() const { return puts_; }

 private:
  Result<CheckpointConfig> DoPut(const CheckpointConfig& config,
                                 const Checkpoint& checkpoint,
                                 const Metadata& metadata,
                                 const ChannelVersions& new_versions) override {
    ++puts_;
    return ForwardingCheckpointer::DoPut(config, checkpoint, metadata,
                                         new_versions);
  }

  int puts_ = 0;
};

TEST_CASE(
    "forwarding: a wrapper overrides one call, the rest reach the "
    "target") {
  MemoryCheckpointer target;
  CountingCheckpointer counting(&target);
  CHECK(counting.target() == &target);
  testing::DoPut(counting, {.thread = "t", .id = testing::CpId(1)});
  testing::DoWrites(counting, "t", testing::CpId(1),
                    {ChannelWrite{"x", testing::Val("1")}}, "task");
  CHECK(counting.puts() == 1);
  CHECK(testing::MustGet(target, testing::Cfg("t")).pending_writes.size() == 1);
  RP_REQUIRE_OK(counting.Close());
  CHECK(target.GetTuple(testing::Cfg("t")).status().IsAborted());
}

}  // namespace
}  // namespace rockpoint
