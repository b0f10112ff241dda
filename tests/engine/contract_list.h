// Contract suite, list: which threads, namespaces and ids are listed, the
// metadata filter, before, limit, global newest-first order, and that listed
// tuples equal get_tuple's. Compiled by contract_cases.cpp.
#pragma once

#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"

RP_CONTRACT_CASE("contract list") {
  RP_CONTRACT_USING;
  auto meta = [](const char* source, int step, const char* user) {
    return Meta({{"source", Value(source)},
                 {"step", Value(step)},
                 {"user", Meta({{"name", Value(user)}})}});
  };
  // a: "" cp1 cp3 cp5, "sub:1" cp4; b: "" cp2 cp6.
  DoPut(h.store(),
        {.thread = "a", .id = CpId(1), .metadata = meta("input", -1, "ann")});
  DoPut(h.store(),
        {.thread = "b", .id = CpId(2), .metadata = meta("input", -1, "bob")});
  DoPut(h.store(), {.thread = "a",
                    .id = CpId(3),
                    .parent = CpId(1),
                    .metadata = meta("loop", 0, "ann")});
  DoPut(h.store(), {.thread = "a", .id = CpId(4), .ns = "sub:1"});
  DoPut(h.store(), {.thread = "a",
                    .id = CpId(5),
                    .parent = CpId(3),
                    .metadata = meta("loop", 1, "ann")});
  DoPut(h.store(), {.thread = "b",
                    .id = CpId(6),
                    .parent = CpId(2),
                    .metadata = meta("loop", 0, "bob")});
  DoWrites(h.store(), "a", CpId(3), {W("x", "1"), W("__error__", "e")}, "k");
  h.Reopen();

  SUBCASE("no config, or no thread_id: all threads, newest first") {
    CHECK(Keys(Collect(h.store(), ListOf(std::nullopt))) ==
          "b/cp0006 a/cp0005 a:sub:1/cp0004 a/cp0003 b/cp0002 a/cp0001");
    CHECK(Keys(Collect(h.store(), ListOf(CheckpointConfig{}))) ==
          "b/cp0006 a/cp0005 a:sub:1/cp0004 a/cp0003 b/cp0002 a/cp0001");
    CHECK(Keys(Collect(h.store(), ListOf(CheckpointConfig{std::nullopt, "",
                                                          std::nullopt}))) ==
          "b/cp0006 a/cp0005 a/cp0003 b/cp0002 a/cp0001");
  }
  SUBCASE("one thread; checkpoint_ns absent lists every namespace") {
    CHECK(
        Ids(Collect(h.store(), ListOf(Cfg("a", std::nullopt, std::nullopt)))) ==
        "cp0005 cp0004 cp0003 cp0001");
    CHECK(Ids(Collect(h.store(), ListOf(Cfg("a")))) == "cp0005 cp0003 cp0001");
    CHECK(Ids(Collect(h.store(), ListOf(Cfg("a", std::nullopt, "sub:1")))) ==
          "cp0004");
    CHECK(Collect(h.store(), ListOf(Cfg("zzz", std::nullopt, std::nullopt)))
              .empty());
  }
  SUBCASE("checkpoint_id present: only that checkpoint") {
    CHECK(Keys(Collect(h.store(), ListOf(Cfg("a", CpId(3))))) == "a/cp0003");
    CHECK(Keys(Collect(h.store(), ListOf(Cfg("a", CpId(4), std::nullopt)))) ==
          "a:sub:1/cp0004");
    CHECK(Collect(h.store(), ListOf(Cfg("a", CpId(4)))).empty());
    CHECK(Collect(h.store(), ListOf(Cfg("a", CpId(2)))).empty());
  }
  SUBCASE("filter: AND of top-level equalities, {} matches everything") {
    CHECK(Keys(Collect(h.store(), ListOf(std::nullopt,
                                         Meta({{"source", Value("loop")}})))) ==
          "b/cp0006 a/cp0005 a/cp0003");
    CHECK(Keys(Collect(h.store(),
                       ListOf(std::nullopt, Meta({{"source", Value("loop")},
                                                  {"step", Value(0)}})))) ==
          "b/cp0006 a/cp0003");
    CHECK(Keys(Collect(h.store(),
                       ListOf(Cfg("a"), Meta({{"source", Value("loop")},
                                              {"step", Value(0)}})))) ==
          "a/cp0003");
    CHECK(Keys(Collect(
              h.store(),
              ListOf(std::nullopt,
                     Meta({{"user", Meta({{"name", Value("bob")}})}})))) ==
          "b/cp0006 b/cp0002");
    CHECK(Collect(h.store(),
                  ListOf(std::nullopt,
                         Meta({{"user", Meta({{"name", Value("eve")}})}})))
              .empty());
    CHECK(Collect(h.store(), ListOf(std::nullopt, Meta({{"user", Meta()}})))
              .empty());
    CHECK(Collect(h.store(), ListOf(std::nullopt, Meta({{"step", Value("0")}})))
              .empty());
    CHECK(Collect(h.store(),
                  ListOf(std::nullopt, Meta({{"missing", Value(nullptr)}})))
              .empty());
    CHECK(Collect(h.store(), ListOf(std::nullopt, Meta())).size() == 6);
  }
  SUBCASE("before: ids below before.checkpoint_id, in any thread") {
    CHECK(Keys(Collect(h.store(), ListOf(std::nullopt, Meta(), CpId(4)))) ==
          "a/cp0003 b/cp0002 a/cp0001");
    CHECK(Keys(Collect(h.store(), ListOf(Cfg("b"), Meta(), CpId(6)))) ==
          "b/cp0002");
    CHECK(Collect(h.store(), ListOf(std::nullopt, Meta(), CpId(1))).empty());
    // before names an id that does not exist: still an order bound.
    CHECK(Keys(Collect(h.store(), ListOf(std::nullopt, Meta(), "cp0002x"))) ==
          "b/cp0002 a/cp0001");
  }
  SUBCASE("before and order use string order of ids") {
    DoPut(h.store(), {.thread = "s", .id = "9"});
    DoPut(h.store(), {.thread = "s", .id = "10", .parent = "9"});
    h.Reopen();
    CHECK(Ids(Collect(h.store(), ListOf(Cfg("s")))) == "9 10");
    CHECK(Ids(Collect(h.store(), ListOf(Cfg("s"), Meta(), "9"))) == "10");
    CHECK(MustGet(h.store(), Cfg("s")).config.checkpoint_id == "9");
  }
  SUBCASE("limit applies after filter and before") {
    CHECK(Keys(Collect(h.store(), ListOf(std::nullopt, Meta(), std::nullopt,
                                         2))) == "b/cp0006 a/cp0005");
    CHECK(Keys(Collect(h.store(),
                       ListOf(std::nullopt, Meta({{"source", Value("input")}}),
                              std::nullopt, 1))) == "b/cp0002");
    CHECK(Keys(Collect(h.store(),
                       ListOf(std::nullopt, Meta({{"source", Value("loop")}}),
                              CpId(6), 1))) == "a/cp0005");
    CHECK(Collect(h.store(), ListOf(std::nullopt, Meta(), std::nullopt, 100))
              .size() == 6);
  }
  SUBCASE("listed tuples equal get_tuple's (pending_writes, parent_config)") {
    std::vector<CheckpointTuple> all = Collect(h.store(), ListOf(std::nullopt));
    REQUIRE(all.size() == 6);
    for (const CheckpointTuple& tuple : all) {
      CHECK(tuple == MustGet(h.store(), tuple.config));
    }
    CheckpointTuple third = MustGet(h.store(), Cfg("a", CpId(3)));
    CHECK(WritesOf(third.pending_writes) == "/k#-1:__error__=e /k#0:x=1");
    REQUIRE(third.parent_config.has_value());
    CHECK(*third.parent_config == CheckpointConfig{"a", "", CpId(1)});
  }
  SUBCASE("ListAll equals the collected cursor") {
    CHECK(Unwrap(h.store().ListAll(ListOf(std::nullopt))) ==
          Collect(h.store(), ListOf(std::nullopt)));
  }
}
