// Contract suite, bad input: every method rejects it with InvalidArgument
// naming the field and writes nothing; a missing target is NotFound.
// Value-size limits are checked in validation_test.cpp (a harness cannot set
// limits, and the default is 256 MiB). Compiled by contract_cases.cpp.
#pragma once

#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"
#include "serde/nested_value.h"

namespace rockpoint::testing {

// REQUIREs InvalidArgument whose message contains `field`.
inline void CheckInvalid(const Status& status, const std::string& field) {
  INFO(status.ToString());
  CHECK(status.IsInvalidArgument());
  CHECK(status.message().find(field) != std::string::npos);
}

// The store's visible content, for "nothing was written" checks.
inline std::string Everything(Checkpointer& store) {
  std::string out = Keys(Collect(store, ListOf(std::nullopt)));
  for (const ThreadInfo& thread : Unwrap(store.ListThreads({})).threads) {
    out += " thread:" + thread.thread_id;
  }
  return out;
}

// Metadata `levels` maps deep: {"k": {"k": ... {}}}.
inline Value NestedMetadata(int levels) {
  Value value = Meta();
  for (int level = 1; level < levels; ++level) {
    value = Meta({{"k", std::move(value)}});
  }
  return value;
}

}  // namespace rockpoint::testing

RP_CONTRACT_CASE("contract metadata nesting") {
  RP_CONTRACT_USING;
  SUBCASE("at the limit it is stored and read back; one past is refused") {
    const Value deepest = NestedMetadata(kMaxMetadataNesting);
    RP_REQUIRE_OK(
        h.store().Put(Cfg("t"), MakeCheckpoint(CpId(1)), deepest, {}).status());
    CheckInvalid(h.store()
                     .Put(Cfg("t"), MakeCheckpoint(CpId(2)),
                          NestedMetadata(kMaxMetadataNesting + 1), {})
                     .status(),
                 "metadata nests deeper than 255");
    CheckInvalid(h.store()
                     .Put(Cfg("t"), MakeCheckpoint(CpId(3)),
                          Meta({{"list", Value(Value::Array{NestedMetadata(
                                             kMaxMetadataNesting - 1)})}}),
                          {})
                     .status(),
                 "metadata");
    h.Reopen();
    CHECK(MustGet(h.store(), Cfg("t", CpId(1))).metadata == deepest);
    CHECK(Ids(Collect(h.store(), ListOf(Cfg("t", std::nullopt,
                                            std::nullopt)))) == CpId(1));
    CHECK(Unwrap(h.store().ListThreads({})).threads.size() == 1);
  }
  SUBCASE("far deeper metadata is refused like one level past, not a crash") {
    // Maps and arrays 500,000 levels deep: any recursion over them would
    // overflow the stack (validation, copying, encoding or destroying).
    for (bool maps : {true, false}) {
      CAPTURE(maps);
      Value::Map top;
      top.emplace(
          "deep",
          maps ? serde::testing::NestedMaps(serde::testing::kFarTooDeep)
               : serde::testing::NestedArrays(serde::testing::kFarTooDeep));
      const Value metadata(std::move(top));
      CheckInvalid(h.store()
                       .Put(Cfg("t"), MakeCheckpoint(CpId(1)), metadata, {})
                       .status(),
                   "metadata nests deeper than 255 maps and arrays");
    }
    CHECK(Everything(h.store()).empty());
  }
}

RP_CONTRACT_CASE("contract bad input") {
  RP_CONTRACT_USING;
  DoPut(h.store(), {.thread = "t", .id = CpId(1)});
  DoWrites(h.store(), "t", CpId(1), {W("a", "1")}, "k");
  const std::string before = Everything(h.store());
  const CheckpointTuple tuple_before = MustGet(h.store(), Cfg("t", CpId(1)));

  SUBCASE("put") {
    Checkpoint checkpoint =
        MakeCheckpoint(CpId(2), {{"a", Val("x")}}, {{"a", int64_t{1}}});
    CheckInvalid(h.store()
                     .Put(CheckpointConfig{std::nullopt, "", CpId(1)},
                          checkpoint, Meta(), checkpoint.channel_versions)
                     .status(),
                 "thread_id");
    Status not_map = h.store()
                         .Put(Cfg("t", CpId(1)), checkpoint, Value("text"),
                              checkpoint.channel_versions)
                         .status();
    CheckInvalid(not_map, "metadata");
    CHECK(not_map.message() == "metadata must be a map, got string");
    CheckInvalid(h.store()
                     .Put(Cfg("t", CpId(1)), checkpoint, Value(Value::Array{}),
                          checkpoint.channel_versions)
                     .status(),
                 "metadata");
    CheckInvalid(h.store()
                     .Put(Cfg("t", CpId(1)), MakeCheckpoint(""), Meta(), {})
                     .status(),
                 "checkpoint.id");
    CheckInvalid(h.store()
                     .Put(Cfg("t", CpId(2)), checkpoint, Meta(),
                          checkpoint.channel_versions)
                     .status(),
                 "checkpoint.id");
  }
  SUBCASE("put_writes") {
    CheckInvalid(
        h.store().PutWrites(CheckpointConfig{std::nullopt, "", CpId(1)},
                            {W("a", "2")}, "k2"),
        "thread_id");
    CheckInvalid(h.store().PutWrites(Cfg("t"), {W("a", "2")}, "k2"),
                 "checkpoint_id");
  }
  SUBCASE("list") {
    ListOptions options = ListOf(std::nullopt, Value("source"));
    CheckInvalid(h.store().List(options).status(), "filter");
    CheckInvalid(h.store().ListAll(options).status(), "filter");
    options = ListOf(std::nullopt, Value(Value::Array{}));
    CheckInvalid(h.store().List(options).status(), "filter");
    options = ListOf(std::nullopt);
    options.before = CheckpointConfig{"t", "", std::nullopt};
    CheckInvalid(h.store().List(options).status(), "before");
  }
  SUBCASE("prune") {
    CheckInvalid(h.store().Prune({"t"}, PruneStrategy::kKeepLatest, 0),
                 "keep_last");
    CheckInvalid(h.store().Prune({"t"}, static_cast<PruneStrategy>(7)),
                 "strategy");
  }
  SUBCASE("get_delta_channel_history") {
    CheckInvalid(
        h.store().GetDeltaChannelHistory(CheckpointConfig{}, {"a"}).status(),
        "thread_id");
    CHECK(h.store()
              .GetDeltaChannelHistory(Cfg("t", CpId(9)), {"a"})
              .status()
              .IsNotFound());
    CHECK(h.store()
              .GetDeltaChannelHistory(Cfg("nope"), {"a"})
              .status()
              .IsNotFound());
  }
  h.Reopen();
  CHECK(Everything(h.store()) == before);
  CHECK(MustGet(h.store(), Cfg("t", CpId(1))) == tuple_before);
}
