// Free functions of the interface: GetNextVersion, SpecialWriteIndex and
// Checkpointer::ListAll.
#include "rockpoint/checkpointer.h"

#include <doctest/doctest.h>

#include <limits>
#include <set>

#include "engine/contract_helpers.h"
#include "rockpoint/memory_checkpointer.h"

namespace rockpoint {
namespace {

using testing::Unwrap;

// The string version after `current`, REQUIRing success and the format.
std::string NextString(const std::string& current) {
  ChannelVersion next = Unwrap(GetNextVersion(ChannelVersion{current}));
  REQUIRE(std::holds_alternative<std::string>(next));
  const std::string& text = std::get<std::string>(next);
  size_t dot = text.find('.');
  REQUIRE(dot != std::string::npos);
  CHECK(text.size() - dot - 1 == 16);
  CHECK(text.find_first_not_of("0123456789.") == std::string::npos);
  return text;
}

TEST_CASE("GetNextVersion: none -> 1, int -> +1") {
  CHECK(Unwrap(GetNextVersion(std::nullopt)) == ChannelVersion{int64_t{1}});
  CHECK(Unwrap(GetNextVersion(ChannelVersion{int64_t{0}})) ==
        ChannelVersion{int64_t{1}});
  CHECK(Unwrap(GetNextVersion(ChannelVersion{int64_t{-2}})) ==
        ChannelVersion{int64_t{-1}});
  CHECK(GetNextVersion(ChannelVersion{std::numeric_limits<int64_t>::max()})
            .status()
            .IsInvalidArgument());
}

TEST_CASE("GetNextVersion: strings get the runtime's padded format") {
  CHECK(NextString("00000000000000000000000000000001.0000000000000000")
            .substr(0, 33) == "00000000000000000000000000000002.");
  CHECK(NextString("7").substr(0, 33) == "00000000000000000000000000000008.");
  CHECK(NextString("0.5").substr(0, 33) == "00000000000000000000000000000001.");
  CHECK(NextString("00000000000000000000000000000099.1").substr(0, 33) ==
        "00000000000000000000000000000100.");
  // A counter past 32 digits grows instead of wrapping.
  CHECK(NextString(std::string(32, '9') + ".1").substr(0, 34) ==
        "1" + std::string(32, '0') + ".");
  // Beyond int64: still exact decimal arithmetic.
  CHECK(NextString("99999999999999999999.1").substr(0, 33) ==
        std::string(11, '0') + "1" + std::string(20, '0') + ".");
}

TEST_CASE("GetNextVersion: successive padded versions sort in order") {
  std::string version = "0.0";
  std::string previous;
  for (int i = 0; i < 120; ++i) {
    version = NextString(version);
    CHECK(previous < version);
    previous = version;
  }
}

TEST_CASE("GetNextVersion: two branches from one version never collide") {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) seen.insert(NextString("5.1"));
  CHECK(seen.size() == 50);
}

TEST_CASE("GetNextVersion: a string without a decimal counter is rejected") {
  for (const char* bad : {"", ".5", "x.1", "1a.2", "-1.0", " 1.0"}) {
    CAPTURE(bad);
    Status status = GetNextVersion(ChannelVersion{std::string(bad)}).status();
    CHECK(status.IsInvalidArgument());
    CHECK(status.message().find("counter") != std::string::npos);
  }
}

TEST_CASE("SpecialWriteIndex") {
  CHECK(SpecialWriteIndex(kErrorChannel) == -1);
  CHECK(SpecialWriteIndex(kScheduledChannel) == -2);
  CHECK(SpecialWriteIndex(kInterruptChannel) == -3);
  CHECK(SpecialWriteIndex(kResumeChannel) == -4);
  CHECK_FALSE(SpecialWriteIndex(kTasksChannel).has_value());
  CHECK_FALSE(SpecialWriteIndex("").has_value());
  CHECK_FALSE(SpecialWriteIndex("__error__ ").has_value());
}

TEST_CASE("ListAll materializes the cursor and passes errors on") {
  MemoryCheckpointer store;
  for (int i = 1; i <= 3; ++i) {
    testing::DoPut(store, {.thread = "t", .id = testing::CpId(i)});
  }
  CHECK(testing::Ids(Unwrap(store.ListAll({}))) == "cp0003 cp0002 cp0001");
  ListOptions bad;
  bad.filter = Value(1);
  CHECK(store.ListAll(bad).status().IsInvalidArgument());
}

}  // namespace
}  // namespace rockpoint
