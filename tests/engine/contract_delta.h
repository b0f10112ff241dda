// Contract suite, get_delta_channel_history: where the walk starts, how it
// follows parent ids, which writes it takes, where each channel's seed is,
// and the order of the writes. Compiled by contract_cases.cpp.
#pragma once

#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"
#include "engine/delta_helpers.h"

RP_CONTRACT_CASE("contract get_delta_channel_history") {
  RP_CONTRACT_USING;

  SUBCASE("no channels: {}") {
    PutDeltaStep(h.store(), "t", CpId(1), {}, int64_t{1}, "S1", {"w1"});
    h.Reopen();
    CHECK(History(h.store(), Cfg("t", CpId(1)), {}).empty());
    CHECK(History(h.store(), Cfg("t"), {}).empty());
  }

  SUBCASE("starts at the target's parent; latest when no id") {
    PutDeltaStep(h.store(), "t", CpId(1), {}, int64_t{1}, "S1", {"w1"});
    PutDeltaStep(h.store(), "t", CpId(2), CpId(1), int64_t{2}, {}, {"w2"});
    PutDeltaStep(h.store(), "t", CpId(3), CpId(2), int64_t{3}, {}, {"w3"});
    h.Reopen();
    CHECK(HistoryOf(h.store(), Cfg("t")) == "S1: cp0001/k#0=w1 cp0002/k#0=w2");
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(3))) ==
          "S1: cp0001/k#0=w1 cp0002/k#0=w2");
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(2))) == "S1: cp0001/k#0=w1");
    // A root has no ancestors: no writes, no seed (its own value ignored).
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(1))) == "-:");
  }

  SUBCASE("the seed ancestor's writes are included and nothing older") {
    PutDeltaStep(h.store(), "t", CpId(1), {}, int64_t{1}, "S1", {"w1"});
    PutDeltaStep(h.store(), "t", CpId(2), CpId(1), int64_t{2}, "S2", {"w2"});
    PutDeltaStep(h.store(), "t", CpId(3), CpId(2), int64_t{3}, {}, {"w3"});
    // The target stores a value itself; the walk still starts at its parent.
    PutDeltaStep(h.store(), "t", CpId(4), CpId(3), int64_t{4}, "S4", {"w4"});
    h.Reopen();
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(4))) ==
          "S2: cp0002/k#0=w2 cp0003/k#0=w3");
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(3))) == "S2: cp0002/k#0=w2");
  }

  SUBCASE("writes before the seed are oldest first, several per checkpoint") {
    PutDeltaStep(h.store(), "t", CpId(1), {}, int64_t{1}, "S1", {});
    PutDeltaStep(h.store(), "t", CpId(2), CpId(1), int64_t{2}, {}, {});
    DoWrites(h.store(), "t", CpId(2), {W("msgs", "b0"), W("other", "x")}, "b");
    DoWrites(h.store(), "t", CpId(2), {W("msgs", "a0"), W("msgs", "a1")}, "a");
    DoWrites(h.store(), "t", CpId(2), {W("msgs", "p0")}, "a", "p");
    DoWrites(h.store(), "t", CpId(2), {W("__error__", "e")}, "a");
    PutDeltaStep(h.store(), "t", CpId(3), CpId(2), int64_t{3}, {}, {"c0"});
    PutDeltaStep(h.store(), "t", CpId(4), CpId(3), int64_t{4}, {}, {});
    h.Reopen();
    // Keyed by task alone (kWritesKeyedByTask), task a's write under "p"
    // repeats (a, 0) and is ignored.
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(4))) ==
          std::string("S1: cp0002/a#0=a0 cp0002/a#1=a1 cp0002/b#0=b0 ") +
              (h.writes_keyed_by_task() ? "" : "cp0002/p/a#0=p0 ") +
              "cp0003/k#0=c0");
    DeltaHistory both =
        History(h.store(), Cfg("t", CpId(4)), {"msgs", "other", "__error__"});
    CHECK(Describe(both.at("other")) == "-: cp0002/b#1=x");
    CHECK(Describe(both.at("__error__")) == "-: cp0002/a#-1=e");
    // Every write carries its full identity.
    REQUIRE(both.at("other").writes.size() == 1);
    CHECK(both.at("other").writes[0] ==
          PendingWrite{"b", "other", Val("x"), "", 1, CpId(2)});
  }

  SUBCASE("follows parent ids: off-path siblings on a fork are excluded") {
    PutDeltaStep(h.store(), "t", CpId(1), {}, std::string("1.a"), "S1",
                 {"root"});
    PutDeltaStep(h.store(), "t", CpId(2), CpId(1), std::string("2.a"), {},
                 {"left"});
    PutDeltaStep(h.store(), "t", CpId(3), CpId(1), std::string("2.b"), {},
                 {"right"});
    PutDeltaStep(h.store(), "t", CpId(4), CpId(3), std::string("3.b"), {},
                 {"right2"});
    PutDeltaStep(h.store(), "t", CpId(5), CpId(2), std::string("3.a"), {}, {});
    h.Reopen();
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(4))) ==
          "S1: cp0001/k#0=root cp0003/k#0=right");
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(5))) ==
          "S1: cp0001/k#0=root cp0002/k#0=left");
  }

  SUBCASE("no value before the root: seed absent, writes to the root") {
    PutDeltaStep(h.store(), "t", CpId(1), {}, int64_t{1}, {}, {"w1"});
    PutDeltaStep(h.store(), "t", CpId(2), CpId(1), int64_t{2}, {}, {"w2"});
    PutDeltaStep(h.store(), "t", CpId(3), CpId(2), int64_t{3}, {}, {});
    h.Reopen();
    DeltaHistory history = History(h.store(), Cfg("t", CpId(3)), {"msgs"});
    CHECK_FALSE(history.at("msgs").seed.has_value());
    CHECK(Describe(history.at("msgs")) == "-: cp0001/k#0=w1 cp0002/k#0=w2");
  }

  SUBCASE("a missing parent ends the walk like a root") {
    PutDeltaStep(h.store(), "t", CpId(2), CpId(1), int64_t{2}, {}, {"w2"});
    PutDeltaStep(h.store(), "t", CpId(3), CpId(2), int64_t{3}, {}, {});
    h.Reopen();
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(3))) == "-: cp0002/k#0=w2");
  }

  SUBCASE("a parent cycle ends the walk before it repeats the target") {
    // 01, then 02 (parent 01), then 01 again with parent 02: a cycle. The
    // target counts as walked, whether named or latest, so each checkpoint's
    // history holds only the other one's writes.
    PutDeltaStep(h.store(), "t", CpId(1), {}, int64_t{1}, {}, {"w1"});
    PutDeltaStep(h.store(), "t", CpId(2), CpId(1), int64_t{2}, {}, {"w2"});
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(1),
                      .parent = CpId(2),
                      .versions = {{"msgs", int64_t{1}}},
                      .new_versions = ChannelVersions{}});
    h.Reopen();
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(2))) == "-: cp0001/k#0=w1");
    CHECK(HistoryOf(h.store(), Cfg("t")) == "-: cp0001/k#0=w1");
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(1))) == "-: cp0002/k#0=w2");
  }

  SUBCASE("\"empty\" versions and inherited values are not seeds") {
    PutDeltaStep(h.store(), "t", CpId(1), {}, int64_t{1}, "S1", {"w1"});
    // Unchanged version (not in new_versions): reads S1, stores nothing.
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(2),
                      .parent = CpId(1),
                      .versions = {{"msgs", int64_t{1}}},
                      .new_versions = ChannelVersions{}});
    DoWrites(h.store(), "t", CpId(2), {W("msgs", "w2")}, "k");
    // A version bump without a value never hides the older seed.
    PutDeltaStep(h.store(), "t", CpId(3), CpId(2), int64_t{3}, {}, {"w3"});
    PutDeltaStep(h.store(), "t", CpId(4), CpId(3), int64_t{4}, {}, {});
    h.Reopen();
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t", CpId(2))).checkpoint) ==
          "msgs=S1");
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(4))) ==
          "S1: cp0001/k#0=w1 cp0002/k#0=w2 cp0003/k#0=w3");
  }

  SUBCASE("a value ignored by immutability is not a seed") {
    PutDeltaStep(h.store(), "t", CpId(1), {}, int64_t{1}, {}, {"w1"});
    // Reuses version 1 (recorded "empty") with a value: stays empty.
    PutDeltaStep(h.store(), "t", CpId(2), CpId(1), int64_t{1}, "late", {"w2"});
    PutDeltaStep(h.store(), "t", CpId(3), CpId(2), int64_t{3}, {}, {});
    h.Reopen();
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(3))) ==
          "-: cp0001/k#0=w1 cp0002/k#0=w2");
  }

  SUBCASE("several channels close independently") {
    auto step = [&](int i, std::map<std::string, TypedValue> values) {
      std::optional<std::string> parent;
      if (i > 1) parent = CpId(i - 1);
      DoPut(h.store(), {.thread = "t",
                        .id = CpId(i),
                        .parent = parent,
                        .values = std::move(values),
                        .versions = {{"a", int64_t{i}}, {"b", int64_t{i}}}});
      DoWrites(
          h.store(), "t", CpId(i),
          {W("a", "a" + std::to_string(i)), W("b", "b" + std::to_string(i))},
          "k");
    };
    step(1, {{"a", Val("A1")}, {"b", Val("B1")}});
    step(2, {{"a", Val("A2")}});
    step(3, {});
    step(4, {});
    h.Reopen();
    DeltaHistory history =
        History(h.store(), Cfg("t", CpId(4)), {"b", "a", "never"});
    REQUIRE(history.size() == 3);
    CHECK(Describe(history.at("a")) == "A2: cp0002/k#0=a2 cp0003/k#0=a3");
    CHECK(Describe(history.at("b")) ==
          "B1: cp0001/k#1=b1 cp0002/k#1=b2 cp0003/k#1=b3");
    CHECK(Describe(history.at("never")) == "-:");
  }

  SUBCASE("the walk stays in its (thread, namespace)") {
    PutDeltaStep(h.store(), "t", CpId(1), {}, int64_t{1}, "root-ns", {"r1"});
    PutDeltaStep(h.store(), "t", CpId(1), {}, int64_t{1}, "sub-ns", {"s1"},
                 "n:1");
    PutDeltaStep(h.store(), "u", CpId(1), {}, int64_t{1}, "other", {"u1"});
    PutDeltaStep(h.store(), "t", CpId(2), CpId(1), int64_t{2}, {}, {}, "n:1");
    h.Reopen();
    CHECK(HistoryOf(h.store(), Cfg("t", CpId(2), "n:1")) ==
          "sub-ns: cp0001/k#0=s1");
    CHECK(HistoryOf(h.store(), Cfg("t", std::nullopt, "n:1")) ==
          "sub-ns: cp0001/k#0=s1");
  }
}
