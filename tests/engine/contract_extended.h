// Contract suite, beyond the per-method rules: list_threads, arbitrary-byte
// ids kept apart, branch safety of forked histories, and get_next_version.
// Compiled by contract_cases.cpp.
#pragma once

#include <algorithm>

#include "engine/contract_bad_input.h"
#include "engine/contract_delta.h"
#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"

RP_CONTRACT_CASE("contract list_threads") {
  RP_CONTRACT_USING;
  DoPut(h.store(), {.thread = "a", .id = CpId(1)});
  DoPut(h.store(), {.thread = "a", .id = CpId(2), .ns = "sub:1"});
  DoPut(h.store(), {.thread = "a", .id = CpId(3), .parent = CpId(1)});
  DoPut(h.store(), {.thread = "b", .id = CpId(4)});
  DoPut(h.store(), {.thread = "e",
                    .id = CpId(5),
                    .metadata = Meta({{"run_id", Value("r")}})});
  DoPut(h.store(), {.thread = "e", .id = CpId(6), .ns = "x"});
  DoPut(h.store(), {.thread = "gone",
                    .id = CpId(7),
                    .metadata = Meta({{"run_id", Value("r")}})});
  // Writes alone do not make a thread.
  DoWrites(h.store(), "writes-only", CpId(1), {W("a", "1")}, "k");
  RP_REQUIRE_OK(h.store().DeleteForRuns({"r"}));
  h.Reopen();
  auto ts = [](int id) { return MakeCheckpoint(CpId(id)).ts; };

  SUBCASE("namespaces, visible counts and latest, threads in byte order") {
    ThreadPage page = Unwrap(h.store().ListThreads({}));
    CHECK_FALSE(page.next_after.has_value());
    REQUIRE(page.threads.size() == 3);
    CHECK(page.threads[0] ==
          ThreadInfo{"a",
                     {NamespaceInfo{"", 2, CpId(3), ts(3)},
                      NamespaceInfo{"sub:1", 1, CpId(2), ts(2)}}});
    CHECK(page.threads[1] ==
          ThreadInfo{"b", {NamespaceInfo{"", 1, CpId(4), ts(4)}}});
    // e's "" namespace lost its only checkpoint: omitted.
    CHECK(page.threads[2] ==
          ThreadInfo{"e", {NamespaceInfo{"x", 1, CpId(6), ts(6)}}});
  }
  SUBCASE("paging with after, limit and next_after") {
    ThreadPage first = Unwrap(h.store().ListThreads({std::nullopt, 2}));
    REQUIRE(first.threads.size() == 2);
    CHECK(first.threads[0].thread_id == "a");
    CHECK(first.threads[1].thread_id == "b");
    REQUIRE(first.next_after.has_value());
    CHECK(*first.next_after == "b");
    ThreadPage second = Unwrap(h.store().ListThreads({first.next_after, 2}));
    REQUIRE(second.threads.size() == 1);
    CHECK(second.threads[0].thread_id == "e");
    CHECK_FALSE(second.next_after.has_value());
    ThreadPage after_a = Unwrap(h.store().ListThreads({std::string("a"), 1}));
    REQUIRE(after_a.threads.size() == 1);
    CHECK(after_a.threads[0].thread_id == "b");
    CHECK(Unwrap(h.store().ListThreads({std::string("e"), 5})).threads.empty());
  }
  SUBCASE("counts follow prune and delete_thread") {
    RP_REQUIRE_OK(h.store().Prune({"a"}, PruneStrategy::kKeepLatest));
    RP_REQUIRE_OK(h.store().DeleteThread("b"));
    h.Reopen();
    ThreadPage page = Unwrap(h.store().ListThreads({}));
    REQUIRE(page.threads.size() == 2);
    CHECK(page.threads[0] ==
          ThreadInfo{"a",
                     {NamespaceInfo{"", 1, CpId(3), ts(3)},
                      NamespaceInfo{"sub:1", 1, CpId(2), ts(2)}}});
    CHECK(page.threads[1].thread_id == "e");
  }
}

namespace rockpoint::testing {

// Puts checkpoint CpId(1) with value "v<i>" and write "w<i>" of task "k" on
// threads[i], for contract_ids.
inline void PutNumberedThreads(Checkpointer& store,
                               const std::vector<std::string>& threads) {
  for (size_t i = 0; i < threads.size(); ++i) {
    std::string tag = std::to_string(i);
    DoPut(store, {.thread = threads[i],
                  .id = CpId(1),
                  .values = {{"c", Val("v" + tag)}},
                  .versions = {{"c", int64_t{1}}}});
    DoWrites(store, threads[i], CpId(1), {W("c", "w" + tag)}, "k");
  }
}

// contract_ids on a kTextIds backend: text ids of every shape are kept
// apart and ordered by bytes whatever the server's collation; the ids it
// cannot store are refused and change nothing.
inline void CheckTextIds(ContractHarness& h) {
  // "B" < "a" < "b" < "é" in bytes; most collations order them otherwise.
  const std::vector<std::string> threads = {"",
                                            "a",
                                            "B",
                                            "b",
                                            "a:b",
                                            "a|b/c",
                                            "\xc3\xa9",
                                            "\xe6\x97\xa5 x",
                                            std::string(kTextIdBytes, 'z')};
  PutNumberedThreads(h.store(), threads);
  for (const std::string& id : {std::string("B"), std::string("a")}) {
    DoPut(h.store(), {.thread = "order", .id = id, .ns = "\xc3\xa9"});
  }
  h.Reopen();

  SUBCASE("each thread reads only its own checkpoint, value and writes") {
    for (size_t i = 0; i < threads.size(); ++i) {
      CAPTURE(i);
      CheckpointTuple tuple = MustGet(h.store(), Cfg(threads[i]));
      CHECK(*tuple.config.thread_id == threads[i]);
      CHECK(ValuesOf(tuple.checkpoint) == "c=v" + std::to_string(i));
      CHECK(WritesOf(tuple.pending_writes) == "/k#0:c=w" + std::to_string(i));
    }
  }
  SUBCASE("list_threads and list order ids by bytes") {
    std::vector<std::string> expected = threads;
    expected.push_back("order");
    std::sort(expected.begin(), expected.end());
    ThreadPage page = Unwrap(h.store().ListThreads({}));
    REQUIRE(page.threads.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      CHECK(page.threads[i].thread_id == expected[i]);
    }
    CHECK(Ids(Collect(h.store(), ListOf(Cfg("order", std::nullopt,
                                            "\xc3\xa9")))) == "a B");
    CHECK(MustGet(h.store(), Cfg("order", std::nullopt, "\xc3\xa9"))
              .config.checkpoint_id == "a");
  }
  SUBCASE("ids a text key cannot hold are refused and change nothing") {
    const std::string before = Everything(h.store());
    for (const std::string& bad : {std::string("a\0", 2), std::string("a\xff"),
                                   std::string(kTextIdBytes + 1, 'z')}) {
      CAPTURE(bad.size());
      Checkpoint checkpoint = MakeCheckpoint(CpId(2));
      CheckInvalid(h.store().Put(Cfg(bad), checkpoint, Meta(), {}).status(),
                   "thread_id");
      CheckInvalid(h.store()
                       .Put(Cfg("a", std::nullopt, bad), checkpoint, Meta(), {})
                       .status(),
                   "checkpoint_ns");
      CheckInvalid(h.store().PutWrites(Cfg(bad, CpId(1)), {W("c", "x")}, "k"),
                   "thread_id");
      CheckInvalid(h.store().PutWrites(Cfg("a", CpId(1)), {W(bad, "x")}, "k"),
                   "channel");
      CHECK_FALSE(Get(h.store(), Cfg(bad)).has_value());
      RP_REQUIRE_OK(h.store().DeleteThread(bad));
    }
    h.Reopen();
    CHECK(Everything(h.store()) == before);
  }
}

}  // namespace rockpoint::testing

RP_CONTRACT_CASE("contract arbitrary byte ids") {
  RP_CONTRACT_USING;
  if (h.text_ids()) {
    CheckTextIds(h);
    return;
  }
  const std::string big(size_t{1} << 20, 'a');
  const std::vector<std::string> threads = {"",      std::string("\0", 1),
                                            "a",     std::string("a\0", 2),
                                            "a:b",   std::string("a\0b", 3),
                                            "a\xff", "a\xff\xff",
                                            big,     big + "b"};
  PutNumberedThreads(h.store(), threads);
  h.Reopen();

  SUBCASE("each thread reads only its own checkpoint, value and writes") {
    for (size_t i = 0; i < threads.size(); ++i) {
      CAPTURE(i);
      std::vector<CheckpointTuple> tuples = Collect(
          h.store(), ListOf(Cfg(threads[i], std::nullopt, std::nullopt)));
      REQUIRE(tuples.size() == 1);
      CHECK(*tuples[0].config.thread_id == threads[i]);
      CHECK(ValuesOf(tuples[0].checkpoint) == "c=v" + std::to_string(i));
      CHECK(WritesOf(tuples[0].pending_writes) ==
            "/k#0:c=w" + std::to_string(i));
    }
    CHECK(Collect(h.store(), ListOf(std::nullopt)).size() == threads.size());
  }
  SUBCASE("list_threads returns them all in byte order") {
    ThreadPage page = Unwrap(h.store().ListThreads({}));
    std::vector<std::string> expected = threads;
    std::sort(expected.begin(), expected.end());
    REQUIRE(page.threads.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      CHECK(page.threads[i].thread_id == expected[i]);
    }
  }
  SUBCASE("delete_thread and copy_thread touch exactly one id") {
    RP_REQUIRE_OK(h.store().DeleteThread("a"));
    RP_REQUIRE_OK(h.store().DeleteThread(big));
    RP_REQUIRE_OK(h.store().CopyThread(std::string("a\0", 2), "a\xff\xff\xff"));
    h.Reopen();
    CHECK_FALSE(Get(h.store(), Cfg("a")).has_value());
    CHECK_FALSE(Get(h.store(), Cfg(big)).has_value());
    for (size_t i : {0, 1, 3, 4, 5, 6, 7, 9}) {
      CAPTURE(i);
      CHECK(ValuesOf(MustGet(h.store(), Cfg(threads[i])).checkpoint) ==
            "c=v" + std::to_string(i));
    }
    CHECK(ValuesOf(MustGet(h.store(), Cfg("a\xff\xff\xff")).checkpoint) ==
          "c=v3");
  }
  SUBCASE("namespaces, checkpoint ids, channels and tasks are bytes too") {
    const std::vector<std::string> names = {
        "x", std::string("x\0", 2), "x:1", "x|y:2", "x\xff", ""};
    for (size_t i = 0; i < names.size(); ++i) {
      std::string tag = std::to_string(i);
      DoPut(h.store(), {.thread = "n",
                        .id = "id" + names[i],
                        .values = {{names[i], Val("v" + tag)}},
                        .versions = {{names[i], names[i]}},
                        .ns = names[i]});
      DoWrites(h.store(), "n", "id" + names[i], {W(names[i], "w" + tag)},
               names[i], names[i], names[i]);
    }
    h.Reopen();
    for (size_t i = 0; i < names.size(); ++i) {
      CAPTURE(i);
      CheckpointTuple tuple =
          MustGet(h.store(), Cfg("n", std::nullopt, names[i]));
      CHECK(*tuple.config.checkpoint_id == "id" + names[i]);
      REQUIRE(tuple.checkpoint.channel_values.size() == 1);
      CHECK(tuple.checkpoint.channel_values.at(names[i]) ==
            Val("v" + std::to_string(i)));
      REQUIRE(tuple.pending_writes.size() == 1);
      CHECK(tuple.pending_writes[0] ==
            PendingWrite{names[i], names[i], Val("w" + std::to_string(i)),
                         names[i], 0, "id" + names[i]});
    }
    CHECK(Collect(h.store(), ListOf(Cfg("n", std::nullopt, std::nullopt)))
              .size() == names.size());
  }
}

RP_CONTRACT_CASE("contract branch safety") {
  RP_CONTRACT_USING;
  // Two branches forked from cp1 each write "c" under versions from the
  // runtime's generator: they never share a stored value.
  ChannelVersion root = Unwrap(GetNextVersion(std::string("0.0")));
  PutDeltaStep(h.store(), "t", CpId(1), {}, root, "base", {"w1"});
  ChannelVersion left = Unwrap(GetNextVersion(root));
  ChannelVersion right = Unwrap(GetNextVersion(root));
  REQUIRE(left != right);
  DoPut(h.store(), {.thread = "t",
                    .id = CpId(2),
                    .parent = CpId(1),
                    .values = {{"msgs", Val("L")}},
                    .versions = {{"msgs", left}}});
  DoWrites(h.store(), "t", CpId(2), {W("msgs", "left-w")}, "k");
  DoPut(h.store(), {.thread = "t",
                    .id = CpId(3),
                    .parent = CpId(1),
                    .values = {{"msgs", Val("R")}},
                    .versions = {{"msgs", right}}});
  DoWrites(h.store(), "t", CpId(3), {W("msgs", "right-w")}, "k");
  PutDeltaStep(h.store(), "t", CpId(4), CpId(2), Unwrap(GetNextVersion(left)),
               {}, {});
  PutDeltaStep(h.store(), "t", CpId(5), CpId(3), Unwrap(GetNextVersion(right)),
               {}, {});
  h.Reopen();
  CHECK(ValuesOf(MustGet(h.store(), Cfg("t", CpId(2))).checkpoint) == "msgs=L");
  CHECK(ValuesOf(MustGet(h.store(), Cfg("t", CpId(3))).checkpoint) == "msgs=R");
  CHECK(HistoryOf(h.store(), Cfg("t", CpId(4))) == "L: cp0002/k#0=left-w");
  CHECK(HistoryOf(h.store(), Cfg("t", CpId(5))) == "R: cp0003/k#0=right-w");
  CHECK(MustGet(h.store(), Cfg("t")).config.checkpoint_id == CpId(5));
}

RP_CONTRACT_CASE("contract get_next_version") {
  RP_CONTRACT_USING;
  CHECK(Unwrap(GetNextVersion(std::nullopt)) == ChannelVersion{int64_t{1}});
  CHECK(Unwrap(GetNextVersion(ChannelVersion{int64_t{1}})) ==
        ChannelVersion{int64_t{2}});
  CHECK(Unwrap(GetNextVersion(ChannelVersion{int64_t{41}})) ==
        ChannelVersion{int64_t{42}});
  ChannelVersion next = Unwrap(GetNextVersion(
      ChannelVersion{std::string("00000000000000000000000000000009.123")}));
  REQUIRE(std::holds_alternative<std::string>(next));
  const std::string& text = std::get<std::string>(next);
  REQUIRE(text.size() == 32 + 1 + 16);
  CHECK(text.substr(0, 33) == "00000000000000000000000000000010.");
  CHECK(text.find_first_not_of("0123456789", 33) == std::string::npos);
  CHECK(GetNextVersion(ChannelVersion{std::string("x.1")})
            .status()
            .IsInvalidArgument());
}
