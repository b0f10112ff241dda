// Shared input checks (engine/validation.h): exact messages, limits, and the
// small shared rules (filter matching, write index, run id).
#include "engine/validation.h"

#include <doctest/doctest.h>

#include "engine/backend_rules.h"
#include "engine/contract_helpers.h"

namespace rockpoint {
namespace {

using testing::CpId;
using testing::MakeCheckpoint;
using testing::Meta;
using testing::Val;

CheckpointerLimits SmallLimits() {
  CheckpointerLimits limits;
  limits.max_value_bytes = 100;
  limits.max_id_bytes = 10;
  return limits;
}

Status PutWith(const CheckpointConfig& config, const Checkpoint& checkpoint,
               const Value& metadata = Meta(),
               const ChannelVersions& new_versions = {}) {
  return ValidatePut(config, checkpoint, metadata, new_versions, SmallLimits());
}

TEST_CASE("ValidatePut accepts a well-formed put") {
  Checkpoint checkpoint = MakeCheckpoint(
      "c2", {{"x", Val(std::string(100, 'v'))}}, {{"x", int64_t{1}}});
  CHECK(PutWith(CheckpointConfig{"t", std::nullopt, "c1"}, checkpoint, Meta(),
                checkpoint.channel_versions)
            .ok());
  CHECK(PutWith(CheckpointConfig{"", "", std::nullopt}, checkpoint).ok());
}

TEST_CASE("ValidatePut names the missing or malformed field") {
  Checkpoint checkpoint = MakeCheckpoint("c2");
  CHECK(PutWith(CheckpointConfig{}, checkpoint) ==
        Status::InvalidArgument("config.thread_id is missing"));
  CHECK(PutWith(CheckpointConfig{"t"}, MakeCheckpoint("")) ==
        Status::InvalidArgument("checkpoint.id is empty"));
  CHECK(PutWith(CheckpointConfig{"t"}, checkpoint, Value("s")) ==
        Status::InvalidArgument("metadata must be a map, got string"));
  CHECK(PutWith(CheckpointConfig{"t"}, checkpoint, Value(3)) ==
        Status::InvalidArgument("metadata must be a map, got int"));
  CHECK(PutWith(CheckpointConfig{"t"}, checkpoint, Value()) ==
        Status::InvalidArgument("metadata must be a map, got null"));
  CHECK(PutWith(CheckpointConfig{"t"}, checkpoint, Value::MakeArray()) ==
        Status::InvalidArgument("metadata must be a map, got array"));
  Status own_parent = PutWith(CheckpointConfig{"t", "", "c2"}, checkpoint);
  CHECK(own_parent.IsInvalidArgument());
  CHECK(own_parent.message().find("checkpoint.id equals "
                                  "config.checkpoint_id") == 0);
}

TEST_CASE("ValidatePut enforces the value limit") {
  Checkpoint checkpoint = MakeCheckpoint(
      "c1", {{"x", Val(std::string(300, 'v'))}}, {{"x", int64_t{1}}});
  CHECK(PutWith(CheckpointConfig{"t"}, checkpoint) ==
        Status::InvalidArgument("value of channel 'x' is 300 bytes, over the "
                                "limit of 100 "
                                "(CheckpointerLimits::max_value_bytes)"));
  checkpoint.channel_values["x"] = Val(std::string(101, 'v'));
  CHECK(PutWith(CheckpointConfig{"t"}, checkpoint).IsInvalidArgument());
  checkpoint.channel_values["x"] = Val(std::string(100, 'v'));
  CHECK(PutWith(CheckpointConfig{"t"}, checkpoint).ok());
  checkpoint.pending_sends =
      std::vector<TypedValue>{Val(std::string(101, 's'))};
  Status sends = PutWith(CheckpointConfig{"t"}, checkpoint);
  CHECK(sends.IsInvalidArgument());
  CHECK(sends.message().find("checkpoint.pending_sends[0] is 101 bytes") == 0);
}

TEST_CASE("ValidatePut enforces the id limit on every id") {
  const std::string long_id(11, 'i');
  Checkpoint ok = MakeCheckpoint("c1");
  CHECK(PutWith(CheckpointConfig{long_id}, ok) ==
        Status::InvalidArgument("config.thread_id is 11 bytes, over the limit "
                                "of 10 (CheckpointerLimits::max_id_bytes)"));
  CHECK(PutWith(CheckpointConfig{"t", long_id}, ok)
            .message()
            .find("config.checkpoint_ns is 11 bytes") == 0);
  CHECK(PutWith(CheckpointConfig{"t", "", long_id}, ok)
            .message()
            .find("config.checkpoint_id is 11 bytes") == 0);
  CHECK(PutWith(CheckpointConfig{"t"}, MakeCheckpoint(long_id))
            .message()
            .find("checkpoint.id is 11 bytes") == 0);
  Checkpoint channel = MakeCheckpoint("c1", {}, {{long_id, int64_t{1}}});
  CHECK(
      PutWith(CheckpointConfig{"t"}, channel)
          .message()
          .find(
              "channel name in checkpoint.channel_versions 'iiiiiiiiiii' is 11 "
              "bytes") == 0);
  Checkpoint version = MakeCheckpoint("c1", {}, {{"x", long_id}});
  CHECK(PutWith(CheckpointConfig{"t"}, version)
            .message()
            .find("checkpoint.channel_versions version of channel 'x' is 11 "
                  "bytes") == 0);
  CHECK(PutWith(CheckpointConfig{"t"}, ok, Meta(), {{"x", long_id}})
            .message()
            .find("new_versions version of channel 'x'") == 0);
  Checkpoint seen = MakeCheckpoint("c1");
  seen.versions_seen[long_id] = {};
  CHECK(PutWith(CheckpointConfig{"t"}, seen)
            .message()
            .find("node name in checkpoint.versions_seen") == 0);
}

TEST_CASE("messages quote binary and long names safely") {
  CheckpointerLimits limits;
  limits.max_value_bytes = 1;
  std::string name = std::string("a\0\xff'", 4) + std::string(100, 'z');
  Checkpoint checkpoint =
      MakeCheckpoint("c1", {{name, Val("too big")}}, {{name, int64_t{1}}});
  Status status =
      ValidatePut(CheckpointConfig{"t"}, checkpoint, Meta(), {}, limits);
  CHECK(status.message() == "value of channel 'a\\x00\\xff\\x27" +
                                std::string(60, 'z') +
                                "...' is 7 bytes, over the limit of 1 "
                                "(CheckpointerLimits::max_value_bytes)");
}

TEST_CASE("ValidatePutWrites") {
  const CheckpointerLimits limits = SmallLimits();
  std::vector<ChannelWrite> writes{{"a", Val("1")}};
  CHECK(ValidatePutWrites(CheckpointConfig{"t", std::nullopt, "c1"}, writes,
                          "task", "", limits)
            .ok());
  CHECK(ValidatePutWrites(CheckpointConfig{std::nullopt, "", "c1"}, writes,
                          "task", "", limits) ==
        Status::InvalidArgument("config.thread_id is missing"));
  CHECK(ValidatePutWrites(CheckpointConfig{"t"}, writes, "task", "", limits) ==
        Status::InvalidArgument("config.checkpoint_id is missing (put_writes "
                                "needs the checkpoint the writes belong to)"));
  CHECK(ValidatePutWrites(CheckpointConfig{"t", "", "c1"}, writes,
                          std::string(11, 'k'), "", limits)
            .message()
            .find("task_id is 11 bytes") == 0);
  CHECK(ValidatePutWrites(CheckpointConfig{"t", "", "c1"}, writes, "k",
                          std::string(11, 'p'), limits)
            .message()
            .find("task_path is 11 bytes") == 0);
  std::vector<ChannelWrite> big{{"a", Val("1")},
                                {"b", Val(std::string(300, 'v'))}};
  CHECK(ValidatePutWrites(CheckpointConfig{"t", "", "c1"}, big, "k", "",
                          limits) ==
        Status::InvalidArgument("value of writes[1] (channel 'b') is 300 "
                                "bytes, over the limit of 100 "
                                "(CheckpointerLimits::max_value_bytes)"));
  std::vector<ChannelWrite> long_channel{{std::string(11, 'c'), Val("1")}};
  CHECK(ValidatePutWrites(CheckpointConfig{"t", "", "c1"}, long_channel, "k",
                          "", limits)
            .message()
            .find("channel name of writes[0] is 11 bytes") == 0);
}

TEST_CASE("ValidateListOptions") {
  ListOptions options;
  CHECK(ValidateListOptions(options).ok());
  options.filter = Value("x");
  CHECK(ValidateListOptions(options) ==
        Status::InvalidArgument("filter must be a map, got string"));
  options.filter = Meta();
  options.before = CheckpointConfig{"t"};
  CHECK(ValidateListOptions(options) ==
        Status::InvalidArgument("before.checkpoint_id is missing"));
  options.before->checkpoint_id = CpId(1);
  CHECK(ValidateListOptions(options).ok());
}

TEST_CASE("MetadataMatches is an AND of top-level equalities") {
  Value metadata = Meta({{"source", Value("loop")},
                         {"step", Value(2)},
                         {"nested", Meta({{"k", Value("v")}})}});
  CHECK(MetadataMatches(metadata, Meta()));
  CHECK(MetadataMatches(metadata, Meta({{"source", Value("loop")}})));
  CHECK(MetadataMatches(metadata,
                        Meta({{"source", Value("loop")}, {"step", Value(2)}})));
  CHECK(
      MetadataMatches(metadata, Meta({{"nested", Meta({{"k", Value("v")}})}})));
  CHECK_FALSE(MetadataMatches(metadata, Meta({{"nested", Meta()}})));
  CHECK_FALSE(MetadataMatches(
      metadata, Meta({{"source", Value("loop")}, {"step", Value(3)}})));
  CHECK_FALSE(MetadataMatches(metadata, Meta({{"step", Value(2.0)}})));
  CHECK_FALSE(MetadataMatches(metadata, Meta({{"absent", Value()}})));
  CHECK_FALSE(MetadataMatches(metadata, Value("source")));
  CHECK(MetadataMatches(Value(), Meta()));
}

TEST_CASE("WriteIndex, RunIdOf, NamespaceOf") {
  CHECK(WriteIndex("__error__", 5) == -1);
  CHECK(WriteIndex("__scheduled__", 5) == -2);
  CHECK(WriteIndex("__interrupt__", 5) == -3);
  CHECK(WriteIndex("__resume__", 5) == -4);
  CHECK(WriteIndex("__pregel_tasks", 5) == 5);
  CHECK(WriteIndex("x", 0) == 0);
  CHECK(RunIdOf(Meta({{"run_id", Value("r1")}})) == "r1");
  CHECK(RunIdOf(Meta({{"run_id", Value(7)}})) == "");
  CHECK(RunIdOf(Meta()) == "");
  CHECK(RunIdOf(Value("r1")) == "");
  CHECK(NamespaceOf(CheckpointConfig{"t"}) == "");
  CHECK(NamespaceOf(CheckpointConfig{"t", "n:1"}) == "n:1");
}

}  // namespace
}  // namespace rockpoint
