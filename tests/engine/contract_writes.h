// Contract suite, put_writes: write index, first-wins for regular channels,
// replace for special channels, ordering, and which checkpoint writes belong
// to. Compiled by contract_cases.cpp.
#pragma once

#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"

RP_CONTRACT_CASE("contract put_writes") {
  RP_CONTRACT_USING;
  DoPut(h.store(), {.thread = "t", .id = CpId(1)});

  SUBCASE("a write carries task_id, channel, value, task_path, idx, id") {
    DoWrites(h.store(), "t", CpId(1), {W("a", "v")}, "task", "path");
    h.Reopen();
    auto writes = MustGet(h.store(), Cfg("t", CpId(1))).pending_writes;
    REQUIRE(writes.size() == 1);
    CHECK(writes[0] == PendingWrite{"task", "a", Val("v"), "path", 0, CpId(1)});
  }

  SUBCASE("a regular write whose key exists is ignored (first wins)") {
    DoWrites(h.store(), "t", CpId(1), {W("a", "1"), W("b", "2")}, "task");
    DoWrites(h.store(), "t", CpId(1), {W("a", "X"), W("b", "Y"), W("c", "3")},
             "task");
    h.Reopen();
    CHECK(WritesOf(MustGet(h.store(), Cfg("t", CpId(1))).pending_writes) ==
          "/task#0:a=1 /task#1:b=2 /task#2:c=3");
  }

  SUBCASE("the key includes the task: other tasks do not collide") {
    DoWrites(h.store(), "t", CpId(1), {W("a", "1")}, "t1");
    DoWrites(h.store(), "t", CpId(1), {W("a", "2")}, "t2");
    DoWrites(h.store(), "t", CpId(1), {W("a", "3")}, "t1", "p");
    h.Reopen();
    CHECK(WritesOf(MustGet(h.store(), Cfg("t", CpId(1))).pending_writes) ==
          (h.writes_keyed_by_task() ? "/t1#0:a=1 /t2#0:a=2"
                                    : "/t1#0:a=1 /t2#0:a=2 p/t1#0:a=3"));
  }

  SUBCASE("special channels get their fixed index and replace") {
    DoWrites(h.store(), "t", CpId(1),
             {W("x", "0"), W("__error__", "e1"), W("__scheduled__", "s1"),
              W("__interrupt__", "i1"), W("__resume__", "r1"), W("y", "5")},
             "task");
    DoWrites(h.store(), "t", CpId(1),
             {W("__error__", "e2"), W("__interrupt__", "i2")}, "task");
    h.Reopen();
    CHECK(WritesOf(MustGet(h.store(), Cfg("t", CpId(1))).pending_writes) ==
          "/task#-4:__resume__=r1 /task#-3:__interrupt__=i2 "
          "/task#-2:__scheduled__=s1 /task#-1:__error__=e2 /task#0:x=0 "
          "/task#5:y=5");
  }

  SUBCASE("__pregel_tasks is a regular channel (position index, first wins)") {
    DoWrites(h.store(), "t", CpId(1), {W("__pregel_tasks", "s1")}, "task");
    DoWrites(h.store(), "t", CpId(1), {W("__pregel_tasks", "s2")}, "task");
    h.Reopen();
    CHECK(WritesOf(MustGet(h.store(), Cfg("t", CpId(1))).pending_writes) ==
          "/task#0:__pregel_tasks=s1");
  }

  SUBCASE("ordered by (task_path, task_id, idx), idx signed") {
    DoWrites(h.store(), "t", CpId(1), {W("a", "1"), W("__error__", "e")}, "b",
             "p2");
    DoWrites(h.store(), "t", CpId(1), {W("a", "2")}, "b", "");
    DoWrites(h.store(), "t", CpId(1),
             {W("a", "3"), W("b", "4"), W("__resume__", "r")}, "a", "p2");
    DoWrites(h.store(), "t", CpId(1), {W("__interrupt__", "i")}, "z", "p1");
    DoWrites(h.store(), "t", CpId(1), {W("a", "5")}, "a", "");
    h.Reopen();
    // Keyed by task alone, the writes of tasks a and b under "" repeat
    // (a, 0) and (b, 0) and are ignored.
    CHECK(WritesOf(MustGet(h.store(), Cfg("t", CpId(1))).pending_writes) ==
          std::string(h.writes_keyed_by_task() ? "" : "/a#0:a=5 /b#0:a=2 ") +
              "p1/z#-3:__interrupt__=i p2/a#-4:__resume__=r p2/a#0:a=3 "
              "p2/a#1:b=4 p2/b#-1:__error__=e p2/b#0:a=1");
  }

  SUBCASE("writes belong to their checkpoint only; a child starts empty") {
    DoWrites(h.store(), "t", CpId(1), {W("a", "parent")}, "task");
    DoPut(h.store(), {.thread = "t", .id = CpId(2), .parent = CpId(1)});
    h.Reopen();
    CHECK(MustGet(h.store(), Cfg("t", CpId(2))).pending_writes.empty());
    DoWrites(h.store(), "t", CpId(2), {W("a", "child")}, "task");
    h.Reopen();
    CHECK(WritesOf(MustGet(h.store(), Cfg("t", CpId(1))).pending_writes) ==
          "/task#0:a=parent");
    CHECK(WritesOf(MustGet(h.store(), Cfg("t", CpId(2))).pending_writes) ==
          "/task#0:a=child");
  }

  SUBCASE("a missing checkpoint_ns is \"\"; namespaces and threads apart") {
    DoPut(h.store(), {.thread = "t", .id = CpId(1), .ns = "n:1"});
    DoPut(h.store(), {.thread = "u", .id = CpId(1)});
    RP_REQUIRE_OK(h.store().PutWrites(
        CheckpointConfig{"t", std::nullopt, CpId(1)}, {W("a", "root")}, "k"));
    DoWrites(h.store(), "t", CpId(1), {W("a", "sub")}, "k", "", "n:1");
    DoWrites(h.store(), "u", CpId(1), {W("a", "other")}, "k");
    h.Reopen();
    CHECK(WritesOf(MustGet(h.store(), Cfg("t", CpId(1))).pending_writes) ==
          "/k#0:a=root");
    CHECK(
        WritesOf(MustGet(h.store(), Cfg("t", CpId(1), "n:1")).pending_writes) ==
        "/k#0:a=sub");
    CHECK(WritesOf(MustGet(h.store(), Cfg("u", CpId(1))).pending_writes) ==
          "/k#0:a=other");
  }

  SUBCASE("an empty write list stores nothing") {
    DoWrites(h.store(), "t", CpId(1), {}, "task");
    h.Reopen();
    CHECK(MustGet(h.store(), Cfg("t", CpId(1))).pending_writes.empty());
  }
}
