// The retention rule's pure parts: timestamps, durations, policy checks
// and which checkpoints survive.
#include "engine/retention_rule.h"

#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rockpoint {
namespace {

using std::chrono::hours;
using std::chrono::seconds;

RetentionTime Utc(int64_t seconds_since_epoch) {
  return RetentionTime(std::chrono::seconds(seconds_since_epoch));
}

TEST_CASE(
    "retention: ParseCheckpointTs reads ISO-8601 as LangGraph writes it") {
  // 2024-07-31T20:14:19Z is 1722456859 s after the epoch.
  CHECK(ParseCheckpointTs("2024-07-31T20:14:19Z") == Utc(1722456859));
  CHECK(ParseCheckpointTs("2024-07-31T20:14:19") == Utc(1722456859));
  CHECK(ParseCheckpointTs("2024-07-31 20:14:19+00:00") == Utc(1722456859));
  CHECK(ParseCheckpointTs("2024-07-31T22:14:19+02:00") == Utc(1722456859));
  CHECK(ParseCheckpointTs("2024-07-31T15:44:19-0430") == Utc(1722456859));
  CHECK(ParseCheckpointTs("2024-07-31T20:14:19.804150+00:00") ==
        Utc(1722456859) + std::chrono::microseconds(804150));
  CHECK(ParseCheckpointTs("2024-07-31T20:14:19.5Z") ==
        Utc(1722456859) + std::chrono::milliseconds(500));
  CHECK(ParseCheckpointTs("2024-07-31T20:14:19.123456789Z") ==
        Utc(1722456859) + std::chrono::microseconds(123456));
  CHECK(ParseCheckpointTs("2024-02-29T00:00:00Z").has_value());
  for (const char* bad :
       {"", "2024", "2024-07-31", "2024-07-31T20:14", "2024-07-31T20:14:19 x",
        "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-07-31T24:00:00Z",
        "2024-07-31T20:60:00Z", "2024-07-31T20:14:19+25:00",
        "2024-07-31T20:14:19.Z", "9999-01-01T00:00:00Z", "0001-01-01T00:00:00Z",
        "2024-01-01T00:00:00+00:00 cp0001", "not a time"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseCheckpointTs(bad).has_value());
  }
}

TEST_CASE("retention: ParseRetentionDuration") {
  CHECK(ParseRetentionDuration("30d") == seconds(30 * 86400));
  CHECK(ParseRetentionDuration("2w") == seconds(14 * 86400));
  CHECK(ParseRetentionDuration("12h") == hours(12));
  CHECK(ParseRetentionDuration("90m") == seconds(5400));
  CHECK(ParseRetentionDuration("45s") == seconds(45));
  CHECK(ParseRetentionDuration("0s") == seconds(0));
  for (const char* bad : {"", "d", "30", "-1d", "1.5d", "1y", "1 d", "d1",
                          "99999999999999999999d"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseRetentionDuration(bad).has_value());
  }
}

TEST_CASE("retention: a policy that can expire nothing is refused") {
  RetentionPolicy policy;
  CHECK(ValidateRetentionPolicy(policy) ==
        Status::InvalidArgument(
            "retention policy sets none of max_idle, max_age and keep_last"));
  policy.keep_last = 1;
  CHECK(ValidateRetentionPolicy(policy).ok());
  policy.sweep_interval = std::chrono::milliseconds(0);
  CHECK(ValidateRetentionPolicy(policy) ==
        Status::InvalidArgument("sweep_interval must be above 0"));
  policy.sweep_interval = std::chrono::seconds(1);
  policy.sweep_batch_threads = 0;
  CHECK(ValidateRetentionPolicy(policy) ==
        Status::InvalidArgument("sweep_batch_threads must be >= 1, got 0"));
  policy.sweep_batch_threads = 1;
  policy.max_idle = seconds(-5);
  CHECK(ValidateRetentionPolicy(policy) ==
        Status::InvalidArgument("max_idle must not be negative"));
}

TEST_CASE("retention: SurvivorsOf and ThreadIsIdle") {
  const RetentionTime now = *ParseCheckpointTs("2026-11-10T00:00:00Z");
  const std::vector<AgedCheckpoint> newest_first = {
      {"c4", "2026-11-09T12:00:00Z"},
      {"c3", "2026-11-08T00:00:00Z"},
      {"c2", "garbage"},
      {"c1", "2026-11-01T00:00:00Z"},
  };
  const auto survivors = [&](ExpiryRule rule, bool idle) {
    std::string out;
    for (const std::string& id : SurvivorsOf(newest_first, idle, rule)) {
      out += id + " ";
    }
    return out;
  };
  ExpiryRule rule{now, std::nullopt, std::nullopt, 2};
  CHECK(survivors(rule, false) == "c3 c4 ");
  rule = {now, std::nullopt, hours(36), std::nullopt};
  CHECK(survivors(rule, false) == "c2 c4 ");  // c2's ts never ages.
  rule.keep_last = 3;
  CHECK(survivors(rule, false) == "c2 c3 c4 ");
  rule = {now, hours(1), std::nullopt, std::nullopt};
  CHECK(survivors(rule, true) == "");
  CHECK(survivors(rule, false) == "c1 c2 c3 c4 ");
  rule.keep_last = 1;
  CHECK(survivors(rule, true) == "c4 ");
  // A duration past the clock's range expires nothing.
  rule = {now, std::nullopt, hours(24 * 365 * 400), std::nullopt};
  CHECK(survivors(rule, false) == "c1 c2 c3 c4 ");

  const ExpiryRule idle{now, hours(24), std::nullopt, std::nullopt};
  CHECK(ThreadIsIdle({"2026-11-08T00:00:00Z", "2026-11-01T00:00:00Z"}, idle));
  CHECK_FALSE(
      ThreadIsIdle({"2026-11-08T00:00:00Z", "2026-11-09T12:00:00Z"}, idle));
  CHECK_FALSE(ThreadIsIdle({"2026-11-01T00:00:00Z", "garbage"}, idle));
  CHECK_FALSE(ThreadIsIdle({}, idle));
  CHECK_FALSE(ThreadIsIdle({"2026-11-01T00:00:00Z"},
                           {now, std::nullopt, hours(1), std::nullopt}));
}

TEST_CASE("retention: PlanThreadExpiry decides a thread's namespaces") {
  const RetentionTime now = *ParseCheckpointTs("2026-11-10T00:00:00Z");
  const std::vector<AgedCheckpoint> root = {{"r2", "2026-11-09T00:00:00Z"},
                                            {"r1", "2026-11-01T00:00:00Z"}};
  const std::vector<AgedCheckpoint> child = {{"s1", "2026-11-02T00:00:00Z"}};
  const auto ids = [](const std::set<std::string>& set) {
    std::string out;
    for (const std::string& id : set) out += id + " ";
    return out;
  };

  // max_age 3 days: r1 and s1 expire; the thread keeps r2.
  RetentionReport report;
  auto plan = PlanThreadExpiry(
      {root, child, {}}, {now, std::nullopt, hours(72), std::nullopt}, report);
  REQUIRE(plan.size() == 3);
  CHECK(ids(plan[0].survivors) == "r2 ");
  CHECK(ids(plan[0].expired) == "r1 ");
  CHECK(ids(plan[1].survivors) == "");
  CHECK(ids(plan[1].expired) == "s1 ");
  CHECK(plan[2].survivors.empty());
  CHECK(plan[2].expired.empty());
  CHECK(report.threads_examined == 1);
  CHECK(report.threads_emptied == 0);
  CHECK(report.checkpoints_expired == 2);

  // max_idle 12 hours: the newest of every namespace is older, so the
  // thread is idle and everything expires; the report adds up.
  plan = PlanThreadExpiry({root, child},
                          {now, hours(12), std::nullopt, std::nullopt}, report);
  CHECK(ids(plan[0].expired) == "r1 r2 ");
  CHECK(report.threads_examined == 2);
  CHECK(report.threads_emptied == 1);
  CHECK(report.checkpoints_expired == 5);

  // A thread with no visible checkpoint is not examined.
  RetentionReport none;
  plan = PlanThreadExpiry({{}, {}}, {now, hours(1), std::nullopt, 1}, none);
  CHECK(plan.size() == 2);
  CHECK(none.threads_examined == 0);
  CHECK(none.threads_emptied == 0);

  CHECK(CountNeeded({"a", "b", "c"}, {"b", "c", "d"}) == 2);
  CHECK(CountNeeded({}, {"b"}) == 0);
}

TEST_CASE("retention: VisibleNewestFirst skips hidden nodes") {
  const std::map<std::string, std::pair<bool, std::string>> by_id = {
      {"a", {false, "t1"}}, {"b", {true, "t2"}}, {"c", {false, "t3"}}};
  const auto aged =
      VisibleNewestFirst(by_id,
                         [](const std::pair<bool, std::string>& node)
                             -> std::optional<std::string_view> {
                           if (node.first) return std::nullopt;
                           return node.second;
                         });
  REQUIRE(aged.size() == 2);
  CHECK(aged[0].id == "c");
  CHECK(aged[0].ts == "t3");
  CHECK(aged[1].id == "a");
}

}  // namespace
}  // namespace rockpoint
