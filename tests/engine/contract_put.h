// Contract suite, put and get_tuple: normalization, namespaces, parents,
// value storage per (thread, ns, channel, version), versions and metadata
// round trips, and get_tuple's lookup rules. Compiled by contract_cases.cpp.
#pragma once

#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"

RP_CONTRACT_CASE("contract put") {
  RP_CONTRACT_USING;

  SUBCASE("put returns {thread_id, checkpoint_ns, checkpoint.id}") {
    CheckpointConfig root =
        Unwrap(h.store().Put(CheckpointConfig{"t", std::nullopt, std::nullopt},
                             MakeCheckpoint(CpId(1)), Meta(), {}));
    CHECK(root == CheckpointConfig{"t", "", CpId(1)});
    CheckpointConfig child =
        Unwrap(h.store().Put(CheckpointConfig{"t", "sub:1", CpId(1)},
                             MakeCheckpoint(CpId(2)), Meta(), {}));
    CHECK(child == CheckpointConfig{"t", "sub:1", CpId(2)});
  }

  SUBCASE("a missing checkpoint_ns means the root namespace \"\"") {
    RP_REQUIRE_OK(h.store()
                      .Put(CheckpointConfig{"t", std::nullopt, std::nullopt},
                           MakeCheckpoint(CpId(1)), Meta(), {})
                      .status());
    h.Reopen();
    CheckpointTuple by_empty = MustGet(h.store(), Cfg("t", CpId(1), ""));
    CHECK(by_empty.config == CheckpointConfig{"t", "", CpId(1)});
    CHECK(MustGet(h.store(), Cfg("t", std::nullopt, std::nullopt)).config ==
          CheckpointConfig{"t", "", CpId(1)});
    CHECK(Ids(Collect(h.store(), ListOf(Cfg("t", std::nullopt, "")))) ==
          CpId(1));
    CHECK_FALSE(Get(h.store(), Cfg("t", CpId(1), "other")).has_value());
  }

  SUBCASE("config.checkpoint_id is the parent; a root has no parent") {
    DoPut(h.store(), {.thread = "t", .id = CpId(1)});
    DoPut(h.store(), {.thread = "t", .id = CpId(2), .parent = CpId(1)});
    DoPut(h.store(),
          {.thread = "t", .id = CpId(3), .parent = CpId(2), .ns = "n:1"});
    h.Reopen();
    CHECK_FALSE(MustGet(h.store(), Cfg("t", CpId(1))).parent_config);
    auto child = MustGet(h.store(), Cfg("t", CpId(2))).parent_config;
    REQUIRE(child.has_value());
    CHECK(*child == CheckpointConfig{"t", "", CpId(1)});
    auto sub = MustGet(h.store(), Cfg("t", CpId(3), "n:1")).parent_config;
    REQUIRE(sub.has_value());
    CHECK(*sub == CheckpointConfig{"t", "n:1", CpId(2)});
  }

  SUBCASE("values are stored only for new_versions (the three-put example)") {
    std::map<std::string, TypedValue> values{{"foo", Val("f")},
                                             {"baz", Val("b")}};
    ChannelVersions versions{{"foo", int64_t{1}}, {"baz", int64_t{1}}};
    DoPut(h.store(), {.thread = "t1",
                      .id = CpId(1),
                      .values = values,
                      .versions = versions,
                      .new_versions = ChannelVersions{}});
    DoPut(h.store(), {.thread = "t2",
                      .id = CpId(2),
                      .values = values,
                      .versions = versions,
                      .new_versions = ChannelVersions{{"foo", int64_t{1}}}});
    DoPut(h.store(), {.thread = "t3",
                      .id = CpId(3),
                      .values = values,
                      .versions = versions,
                      .new_versions = versions});
    h.Reopen();
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t1")).checkpoint) == "");
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t2")).checkpoint) == "foo=f");
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t3")).checkpoint) == "baz=b foo=f");
    // channel_versions come back as given, whatever was stored.
    CHECK(MustGet(h.store(), Cfg("t1")).checkpoint.channel_versions ==
          versions);
  }

  SUBCASE("a checkpoint reads its own channel_versions; values inherit") {
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(1),
                      .values = {{"a", Val("a1")}, {"b", Val("b1")}},
                      .versions = {{"a", int64_t{1}}, {"b", int64_t{1}}}});
    // a changes, b is unchanged (same version, not in new_versions).
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(2),
                      .parent = CpId(1),
                      .values = {{"a", Val("a2")}, {"b", Val("ignored")}},
                      .versions = {{"a", int64_t{2}}, {"b", int64_t{1}}},
                      .new_versions = ChannelVersions{{"a", int64_t{2}}}});
    // b absent from channel_versions; z named but never stored.
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(3),
                      .parent = CpId(2),
                      .versions = {{"a", int64_t{2}}, {"z", int64_t{9}}},
                      .new_versions = ChannelVersions{}});
    h.Reopen();
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t", CpId(1))).checkpoint) ==
          "a=a1 b=b1");
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t", CpId(2))).checkpoint) ==
          "a=a2 b=b1");
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t", CpId(3))).checkpoint) == "a=a2");
  }

  SUBCASE("a channel in new_versions without a value reads as no entry") {
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(1),
                      .values = {{"b", Val("b1")}},
                      .versions = {{"a", int64_t{1}}, {"b", int64_t{1}}}});
    h.Reopen();
    CheckpointTuple tuple = MustGet(h.store(), Cfg("t", CpId(1)));
    CHECK(ValuesOf(tuple.checkpoint) == "b=b1");
    CHECK(tuple.checkpoint.channel_versions.size() == 2);
  }

  SUBCASE("a value stored under another version than the checkpoint names") {
    // new_versions says a:2, channel_versions a:1: the value goes to a:2,
    // which cp1 does not read (no entry, not an error); cp2 naming a:2
    // reads it.
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(1),
                      .values = {{"a", Val("x")}},
                      .versions = {{"a", int64_t{1}}},
                      .new_versions = ChannelVersions{{"a", int64_t{2}}}});
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(2),
                      .parent = CpId(1),
                      .versions = {{"a", int64_t{2}}},
                      .new_versions = ChannelVersions{}});
    h.Reopen();
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t", CpId(1))).checkpoint).empty());
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t", CpId(2))).checkpoint) == "a=x");
    CHECK(Collect(h.store(), ListOf(Cfg("t"))).size() == 2);
  }

  SUBCASE(
      "a stored value is immutable; a later put reusing it changes nothing") {
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(1),
                      .values = {{"a", Val("first")}},
                      .versions = {{"a", int64_t{1}}, {"e", int64_t{1}}}});
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(2),
                      .parent = CpId(1),
                      .values = {{"a", Val("second")}, {"e", Val("late")}},
                      .versions = {{"a", int64_t{1}}, {"e", int64_t{1}}}});
    h.Reopen();
    // "e" was recorded empty by the first put and stays empty.
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t", CpId(1))).checkpoint) ==
          "a=first");
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t", CpId(2))).checkpoint) ==
          "a=first");
  }

  SUBCASE("values are per (thread, ns): same channel and version elsewhere") {
    for (const char* ns : {"", "n:1"}) {
      for (const char* thread : {"x", "y"}) {
        std::string text = std::string(thread) + "|" + ns;
        DoPut(h.store(), {.thread = thread,
                          .id = CpId(1),
                          .values = {{"a", Val(text)}},
                          .versions = {{"a", int64_t{1}}},
                          .ns = ns});
      }
    }
    h.Reopen();
    for (const char* ns : {"", "n:1"}) {
      for (const char* thread : {"x", "y"}) {
        CHECK(
            ValuesOf(MustGet(h.store(), Cfg(thread, CpId(1), ns)).checkpoint) ==
            "a=" + std::string(thread) + "|" + ns);
      }
    }
  }

  SUBCASE("versions round-trip exactly: int 1 and string \"1\" differ") {
    ChannelVersions versions{
        {"i", int64_t{1}},
        {"s", std::string("1")},
        {"p", std::string("00000000000000000000000000000001."
                          "0123456789012345")},
        {"n", int64_t{-5}}};
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(1),
                      .values = {{"i", Val("int")}, {"s", Val("str")}},
                      .versions = versions});
    // Same channel, the other kind of "1": a different blob.
    DoPut(h.store(), {.thread = "t",
                      .id = CpId(2),
                      .parent = CpId(1),
                      .values = {{"i", Val("int-as-string")}},
                      .versions = {{"i", std::string("1")}}});
    h.Reopen();
    CheckpointTuple first = MustGet(h.store(), Cfg("t", CpId(1)));
    CHECK(first.checkpoint.channel_versions == versions);
    CHECK(std::holds_alternative<int64_t>(
        first.checkpoint.channel_versions.at("i")));
    CHECK(std::holds_alternative<std::string>(
        first.checkpoint.channel_versions.at("s")));
    CHECK(ValuesOf(first.checkpoint) == "i=int s=str");
    CHECK(ValuesOf(MustGet(h.store(), Cfg("t", CpId(2))).checkpoint) ==
          "i=int-as-string");
  }

  SUBCASE("every checkpoint field round-trips") {
    Checkpoint checkpoint = MakeCheckpoint(
        CpId(1), {{"a", Val("\x01\x00\xff", "bytes")}, {"b", Val("{}")}},
        {{"a", int64_t{3}}, {"b", std::string("7.x")}},
        "2024-05-06T07:08:09.123456+00:00");
    checkpoint.v = 2;
    checkpoint.versions_seen = {{"node", {{"a", int64_t{2}}}},
                                {"__input__", {{"b", std::string("7.x")}}},
                                {"empty", {}}};
    checkpoint.updated_channels = std::vector<std::string>{"b", "a"};
    checkpoint.pending_sends = std::vector<TypedValue>{Val("s1"), Val("s2")};
    RP_REQUIRE_OK(h.store()
                      .Put(Cfg("t", std::nullopt), checkpoint, Meta(),
                           checkpoint.channel_versions)
                      .status());
    Checkpoint plain = MakeCheckpoint(CpId(2));
    RP_REQUIRE_OK(h.store().Put(Cfg("t", CpId(1)), plain, Meta(), {}).status());
    h.Reopen();
    CHECK(MustGet(h.store(), Cfg("t", CpId(1))).checkpoint == checkpoint);
    CheckpointTuple second = MustGet(h.store(), Cfg("t", CpId(2)));
    CHECK(second.checkpoint == plain);
    CHECK_FALSE(second.checkpoint.updated_channels.has_value());
    CHECK_FALSE(second.checkpoint.pending_sends.has_value());
  }

  SUBCASE("metadata round-trips: unknown keys, nested values, no config keys") {
    Value::Map nested{
        {"list", Value(Value::Array{Value(1), Value("x"), Value(nullptr)})},
        {"deep", Meta({{"k", Value(2.5)}})}};
    Value metadata =
        Meta({{"source", Value("loop")},
              {"step", Value(-1)},
              {"parents", Meta({{"", Value(CpId(0))}})},
              {"run_id", Value("run-1")},
              {"unknown_key", Value(nested)},
              {"flag", Value(true)},
              {"none", Value(nullptr)},
              {"bin", Value(serde::Bytes{std::string("\0\xff", 2)})},
              {"ext", Value(serde::Ext{5, "payload"})},
              {"big", Value(int64_t{1} << 60)}});
    DoPut(h.store(),
          {.thread = "t", .id = CpId(1), .metadata = metadata, .ns = "n:1"});
    h.Reopen();
    CheckpointTuple tuple = MustGet(h.store(), Cfg("t", CpId(1), "n:1"));
    CHECK(tuple.metadata == metadata);
    CHECK(tuple.metadata.as_map().count("thread_id") == 0);
    CHECK(tuple.metadata.as_map().count("checkpoint_ns") == 0);
    CHECK(tuple.metadata.as_map().count("checkpoint_id") == 0);
  }
}

RP_CONTRACT_CASE("contract get_tuple") {
  RP_CONTRACT_USING;
  // Put out of id order: "latest" is the greatest id, not the last put.
  DoPut(h.store(), {.thread = "t", .id = CpId(3)});
  DoPut(h.store(), {.thread = "t", .id = CpId(1)});
  DoPut(h.store(), {.thread = "t", .id = CpId(2), .parent = CpId(1)});
  DoPut(h.store(), {.thread = "t", .id = CpId(9), .ns = "n:1"});
  h.Reopen();

  SUBCASE("by id: exactly that checkpoint") {
    CheckpointTuple tuple = MustGet(h.store(), Cfg("t", CpId(2)));
    CHECK(tuple.config == CheckpointConfig{"t", "", CpId(2)});
    CHECK(tuple.checkpoint.id == CpId(2));
  }
  SUBCASE("without id: the greatest checkpoint_id of (thread, ns)") {
    CHECK(MustGet(h.store(), Cfg("t")).config.checkpoint_id == CpId(3));
    CHECK(MustGet(h.store(), Cfg("t", std::nullopt, "n:1"))
              .config.checkpoint_id == CpId(9));
  }
  SUBCASE("a missing id is none, never a fallback") {
    CHECK_FALSE(Get(h.store(), Cfg("t", CpId(4))).has_value());
    CHECK_FALSE(Get(h.store(), Cfg("t", CpId(9))).has_value());
    CHECK_FALSE(Get(h.store(), Cfg("t", CpId(1), "n:1")).has_value());
    CHECK_FALSE(Get(h.store(), Cfg("t", std::nullopt, "n:2")).has_value());
    CHECK_FALSE(Get(h.store(), Cfg("unknown")).has_value());
  }
  SUBCASE("a missing thread_id is none") {
    CHECK_FALSE(Get(h.store(), CheckpointConfig{}).has_value());
    CHECK_FALSE(Get(h.store(), CheckpointConfig{std::nullopt, "", CpId(1)})
                    .has_value());
  }
  SUBCASE("a parent deleted by run still yields parent_config") {
    DoPut(h.store(), {.thread = "r",
                      .id = CpId(1),
                      .metadata = Meta({{"run_id", Value("gone")}})});
    DoPut(h.store(), {.thread = "r",
                      .id = CpId(2),
                      .parent = CpId(1),
                      .metadata = Meta({{"run_id", Value("kept")}})});
    RP_REQUIRE_OK(h.store().DeleteForRuns({"gone"}));
    h.Reopen();
    CHECK_FALSE(Get(h.store(), Cfg("r", CpId(1))).has_value());
    auto parent = MustGet(h.store(), Cfg("r", CpId(2))).parent_config;
    REQUIRE(parent.has_value());
    CHECK(*parent == CheckpointConfig{"r", "", CpId(1)});
  }
}
