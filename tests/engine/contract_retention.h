// Contract suite, retention (docs/CONTRACT.md "Retention"): Expire and Sweep
// delete what a policy expires, keep hidden what a survivor's delta
// history needs, report what went, and a dry run changes nothing.
// Compiled by contract_cases.cpp.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "engine/contract_delta_safety.h"
#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"
#include "rockpoint/retention.h"

namespace rockpoint::testing {

// "2026-11-01T00:00:00Z" plus `hours`, with a fraction of a second and an
// offset on odd hours, so both forms are read.
inline std::string HoursAfterBase(int hours) {
  char text[64];
  const int day = 1 + hours / 24;
  const int hour = hours % 24;
  if (hours % 2 == 0) {
    std::snprintf(text, sizeof(text), "2026-11-%02dT%02d:00:00Z", day, hour);
  } else {
    // The same instant written at +02:00.
    std::snprintf(text, sizeof(text), "2026-11-%02dT%02d:00:00.250000+02:00",
                  day + (hour + 2) / 24, (hour + 2) % 24);
  }
  return text;
}

// The instant of HoursAfterBase(hours) (without its fraction).
inline RetentionTime AtHour(int hours) {
  return *ParseCheckpointTs("2026-11-01T00:00:00Z") + std::chrono::hours(hours);
}

// An ExpiryRule at `now` with the given parts.
inline ExpiryRule Rule(RetentionTime now,
                       std::optional<std::chrono::seconds> max_idle,
                       std::optional<std::chrono::seconds> max_age,
                       std::optional<size_t> keep_last, bool dry_run = false) {
  return ExpiryRule{now, max_idle, max_age, keep_last, dry_run};
}

inline RetentionReport MustExpire(Checkpointer& store,
                                  const std::vector<std::string>& threads,
                                  const ExpiryRule& rule) {
  return Unwrap(store.Expire(threads, rule));
}

// Every tuple of every thread, hidden ones of `threads` included.
inline std::string Everything(Checkpointer& store,
                              const std::vector<std::string>& threads) {
  std::string out;
  for (const std::string& thread : threads) {
    ListOptions options = ListOf(Cfg(thread, std::nullopt, std::nullopt));
    options.include_hidden = true;
    for (const CheckpointTuple& tuple : Collect(store, options)) {
      out += thread + "/" + *tuple.config.checkpoint_ns + "/" +
             *tuple.config.checkpoint_id + (tuple.hidden ? " hidden" : "") +
             " writes=" + std::to_string(tuple.pending_writes.size()) + "\n";
    }
  }
  return out;
}

}  // namespace rockpoint::testing

RP_CONTRACT_CASE("contract retention") {
  RP_CONTRACT_USING;
  using std::chrono::hours;
  // "t": 12 checkpoints an hour apart (hours 0..11) in "", 7 (hours 0..6)
  // in "n:1"; "fresh": hours 20..31; "ref": untimed ts (never ages).
  PutDeltaThread(h.store(), "t", "", 12, 4, HoursAfterBase);
  PutDeltaThread(h.store(), "t", "n:1", 7, 3, HoursAfterBase);
  PutDeltaThread(h.store(), "fresh", "", 12, 4,
                 [](int i) { return HoursAfterBase(20 + i); });
  PutDeltaThread(h.store(), "ref");
  h.Reopen();
  const std::vector<std::string> all = {"t", "fresh", "ref"};
  const Readings before = ReadThread(h.store(), "t");
  const Readings fresh = ReadThread(h.store(), "fresh");
  const Readings ref = ReadThread(h.store(), "ref");
  const RetentionTime now = AtHour(32);

  SUBCASE("max_age deletes what is older, survivors read as before") {
    // Older than hour 10: cp0000..cp0009 of "", all of n:1.
    const ExpiryRule rule = Rule(now, std::nullopt, hours(22), std::nullopt);
    const std::string stored = Everything(h.store(), all);
    const RetentionReport dry = MustExpire(
        h.store(), all,
        Rule(now, std::nullopt, hours(22), std::nullopt, /*dry_run=*/true));
    CHECK(Everything(h.store(), all) == stored);
    const RetentionReport report = MustExpire(h.store(), all, rule);
    CHECK(report == dry);
    CHECK(report.threads_examined == 3);
    CHECK(report.checkpoints_expired == 10 + 7);
    // cp0010's "msgs" reads through cp0009 to its seed in cp0008.
    CHECK(report.checkpoints_hidden == 2);
    CHECK(report.threads_emptied == 0);
    CHECK(report.bytes > 0);
    h.Reopen();
    const Readings after = ReadThread(h.store(), "t");
    CHECK(ReadingKeys(after) == "/cp0010 /cp0011");
    CHECK(Everything(h.store(), {"t"}) ==
          "t//cp0011 writes=4\nt//cp0010 writes=3\nt//cp0009 hidden "
          "writes=4\nt//cp0008 hidden writes=3\n");
    CheckSameReadings(before, after, "t");
    CheckSameReadings(fresh, ReadThread(h.store(), "fresh"), "fresh");
    CheckSameReadings(ref, ReadThread(h.store(), "ref"), "ref");
    CHECK(ReadThread(h.store(), "fresh").size() == 12);
    // Nothing more to do: a second pass expires nothing.
    const RetentionReport again = MustExpire(h.store(), all, rule);
    CHECK(again.checkpoints_expired == 0);
    CHECK(again.bytes == 0);
  }

  SUBCASE("keep_last alone keeps the newest per namespace") {
    const RetentionReport report =
        MustExpire(h.store(), {"t"}, Rule(now, std::nullopt, std::nullopt, 2));
    CHECK(report.checkpoints_expired == 10 + 5);
    h.Reopen();
    const Readings after = ReadThread(h.store(), "t");
    CHECK(ReadingKeys(after) == "/cp0010 /cp0011 n:1/cp0005 n:1/cp0006");
    CheckSameReadings(before, after, "t");
  }

  SUBCASE("keep_last is the floor under max_age") {
    MustExpire(h.store(), {"t"}, Rule(now, std::nullopt, hours(1), 3));
    h.Reopen();
    const Readings after = ReadThread(h.store(), "t");
    CHECK(ReadingKeys(after) ==
          "/cp0009 /cp0010 /cp0011 n:1/cp0004 n:1/cp0005 n:1/cp0006");
    CheckSameReadings(before, after, "t");
  }

  SUBCASE("max_idle deletes idle threads whole, not active ones") {
    // "t" last wrote at hour 11, "fresh" at 31; idle means over 12 hours.
    const RetentionReport report = MustExpire(
        h.store(), all, Rule(now, hours(12), std::nullopt, std::nullopt));
    CHECK(report.threads_emptied == 1);
    CHECK(report.checkpoints_expired == 19);
    CHECK(report.checkpoints_hidden == 0);
    h.Reopen();
    CHECK(Everything(h.store(), {"t"}).empty());
    CHECK(ReadThread(h.store(), "fresh").size() == 12);
    CHECK(ReadThread(h.store(), "ref").size() == 12);
    // One recent checkpoint in any namespace keeps the whole thread.
    PutDeltaThread(h.store(), "u", "", 4, 4, HoursAfterBase);
    PutDeltaThread(h.store(), "u", "late", 1, 1,
                   [](int) { return HoursAfterBase(30); });
    CHECK(MustExpire(h.store(), {"u"},
                     Rule(now, hours(12), std::nullopt, std::nullopt))
              .checkpoints_expired == 0);
  }

  SUBCASE("max_idle with keep_last keeps the newest of an idle thread") {
    MustExpire(h.store(), {"t"}, Rule(now, hours(12), std::nullopt, 1));
    h.Reopen();
    const Readings after = ReadThread(h.store(), "t");
    CHECK(ReadingKeys(after) == "/cp0011 n:1/cp0006");
    CheckSameReadings(before, after, "t");
  }

  SUBCASE("a ts that does not parse never expires by age") {
    const RetentionReport report = MustExpire(
        h.store(), {"ref"}, Rule(now, hours(0), hours(0), std::nullopt));
    CHECK(report.threads_examined == 1);
    CHECK(report.checkpoints_expired == 0);
    CHECK(ReadThread(h.store(), "ref").size() == 12);
  }

  SUBCASE("new checkpoints continue through what retention hid") {
    MustExpire(h.store(), {"t", "ref"},
               Rule(now, std::nullopt, std::nullopt, 1));
    for (const char* thread : {"t", "ref"}) {
      PutDeltaStep(h.store(), thread, CpId(20), CpId(11), int64_t{50}, {}, {});
    }
    h.Reopen();
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(20))) ==
          HistoryOf(h.store(), Cfg("ref", CpId(20))));
  }

  SUBCASE("sweep applies a policy to every thread in batches") {
    for (int i = 0; i < 5; ++i) {
      PutDeltaThread(h.store(), "s" + std::to_string(i), "", 3, 2,
                     HoursAfterBase);
    }
    RetentionPolicy policy;
    policy.max_idle = hours(12);
    policy.sweep_batch_threads = 2;
    const RetentionReport dry =
        Unwrap(h.store().Sweep(policy, now, /*dry_run=*/true));
    const RetentionReport report = Unwrap(h.store().Sweep(policy, now));
    CHECK(report == dry);
    CHECK(report.threads_examined == 8);
    CHECK(report.threads_emptied == 6);  // t and s0..s4
    CHECK(report.checkpoints_expired == 19 + 5 * 3);
    h.Reopen();
    const ThreadPage page = Unwrap(h.store().ListThreads({}));
    REQUIRE(page.threads.size() == 2);
    CHECK(page.threads[0].thread_id == "fresh");
    CHECK(page.threads[1].thread_id == "ref");
  }

  SUBCASE("a bad rule is refused and changes nothing") {
    const std::string stored = Everything(h.store(), all);
    const auto refused = [&](const ExpiryRule& rule) {
      const auto result = h.store().Expire(all, rule);
      REQUIRE_FALSE(result.ok());
      CHECK(result.status().code() == StatusCode::kInvalidArgument);
      return result.status().message();
    };
    CHECK(refused(Rule(now, std::nullopt, std::nullopt, std::nullopt)) ==
          "retention policy sets none of max_idle, max_age and keep_last");
    CHECK(refused(Rule(now, std::nullopt, std::nullopt, 0)) ==
          "keep_last must be >= 1, got 0");
    CHECK(refused(Rule(now, std::nullopt, hours(-1), std::nullopt)) ==
          "max_age must not be negative");
    RetentionPolicy none;
    CHECK_FALSE(h.store().Sweep(none, now).ok());
    CHECK(Everything(h.store(), all) == stored);
    // Unknown threads are no error and change nothing.
    CHECK(MustExpire(h.store(), {"nobody", std::string("\0\xff", 2)},
                     Rule(now, hours(0), std::nullopt, std::nullopt)) ==
          RetentionReport{});
    CHECK(Everything(h.store(), all) == stored);
  }
}
