// Channels: how each kind folds one step's writes, overwrites, ephemeral
// clearing, the stored forms (msgpack typed values, snapshot and overwrite
// Ext tags) and their decoding errors, and the in-place fold of
// AppendReducer channels.
#include "rockpoint/runtime/channels.h"

#include <doctest/doctest.h>

#include <stdexcept>

#include "rockpoint/msgpack_codec.h"

using namespace rockpoint;
using namespace rockpoint::runtime;

namespace {

Value Arr(std::initializer_list<Value> items) {
  return Value(Value::Array(items));
}

}  // namespace

TEST_CASE("last value keeps one write per step") {
  ChannelSpec spec = ChannelSpec::LastValue();
  ChannelState channel(&spec);
  CHECK_FALSE(channel.has_value());
  CHECK_FALSE(channel.Update("x", {}).value());
  CHECK(channel.Update("x", {Value(1)}).value());
  CHECK(channel.value() == Value(1));
  Result<bool> two = channel.Update("x", {Value(2), Value(3)});
  CHECK(two.status().IsInvalidArgument());
  CHECK(two.status().message().find("'x'") != std::string::npos);
  CHECK(channel.value() == Value(1));
  CHECK_FALSE(channel.ClearIfEphemeral());
  CHECK(channel.has_value());
}

TEST_CASE("reducer folds writes in order; an overwrite replaces") {
  ChannelSpec spec = ChannelSpec::Reducer(AppendReducer());
  ChannelState channel(&spec);
  CHECK(channel.Update("log", {Value("a"), Arr({Value("b"), Value("c")})})
            .value());
  // The first write (no initial value) is taken as is, then folded into.
  CHECK(channel.value() == Arr({Value("a"), Value("b"), Value("c")}));
  CHECK(channel.Update("log", {Value("d")}).value());
  CHECK(channel.value() ==
        Arr({Value("a"), Value("b"), Value("c"), Value("d")}));
  CHECK_FALSE(channel.overwritten());
  CHECK(channel.Update("log", {MakeOverwrite(Arr({Value("z")})), Value("y")})
            .value());
  CHECK(channel.value() == Arr({Value("z"), Value("y")}));
  CHECK(channel.overwritten());
  channel.clear_overwritten();
  CHECK_FALSE(channel.overwritten());
}

TEST_CASE("reducer with an initial value starts from it") {
  ChannelSpec spec = ChannelSpec::Reducer(AddReducer(), Value(10));
  ChannelState channel(&spec);
  REQUIRE(channel.has_value());
  CHECK(channel.Update("n", {Value(1), Value(2)}).value());
  CHECK(channel.value() == Value(13));
  ChannelSpec doubles = ChannelSpec::Reducer(AddReducer());
  ChannelState sum(&doubles);
  CHECK(sum.Update("s", {Value(1), Value(0.5)}).value());
  CHECK(sum.value() == Value(1.5));
}

TEST_CASE("a throwing reducer is an InvalidArgument naming the channel") {
  ChannelSpec spec = ChannelSpec::Reducer(
      [](const Value&, const Value&) -> Value {
        throw std::runtime_error("no");
      },
      Value(0));
  ChannelState channel(&spec);
  Result<bool> updated = channel.Update("bad", {Value(1)});
  CHECK(updated.status().IsInvalidArgument());
  CHECK(updated.status().message().find("'bad'") != std::string::npos);
}

TEST_CASE("ephemeral and topic channels live for one step") {
  ChannelSpec ephemeral;
  ephemeral.kind = ChannelKind::kEphemeral;
  ChannelState trigger(&ephemeral);
  CHECK(trigger.Update("branch:to:a", {Value(), Value()}).value());
  CHECK(trigger.has_value());
  CHECK(trigger.ClearIfEphemeral());
  CHECK_FALSE(trigger.has_value());
  CHECK_FALSE(trigger.ClearIfEphemeral());

  ChannelSpec topic;
  topic.kind = ChannelKind::kTopic;
  ChannelState sends(&topic);
  CHECK(sends.Update("__pregel_tasks", {Value(1), Value(2)}).value());
  CHECK(sends.value() == Arr({Value(1), Value(2)}));
  CHECK(sends.Update("__pregel_tasks", {Value(3)}).value());
  CHECK(sends.value() == Arr({Value(3)}));  // a new step replaces
}

TEST_CASE("stored forms: snapshots and overwrites are tagged Ext values") {
  Value list = Arr({Value("m1"), Value("m2")});
  Value snapshot = WrapSnapshot(list);
  REQUIRE(snapshot.is_ext());
  CHECK(snapshot.as_ext().type == kDeltaSnapshotExtTag);
  CHECK(snapshot.as_ext().data == serde::EncodeMsgpack(list));
  CHECK(UnwrapStoredValue(snapshot).value() == list);
  CHECK(UnwrapStoredValue(list).value() == list);  // a plain value as is
  Value corrupt(serde::Ext{kDeltaSnapshotExtTag, "\xc1"});
  CHECK(UnwrapStoredValue(corrupt).status().IsCorruption());

  Value overwrite = MakeOverwrite(list);
  CHECK(IsOverwrite(overwrite));
  CHECK_FALSE(IsOverwrite(snapshot));
  CHECK(overwrite.as_ext().type == kOverwriteExtTag);

  TypedValue typed = EncodeTyped(list);
  CHECK(typed.type == "msgpack");
  CHECK(DecodeTyped(typed, "v").value() == list);
  CHECK(
      DecodeTyped(TypedValue{"json", "[]"}, "v").status().IsInvalidArgument());
  Result<Value> bad = DecodeTyped(TypedValue{"msgpack", "\xc1"}, "channel 'c'");
  CHECK(bad.status().IsCorruption());
  CHECK(bad.status().message().find("channel 'c'") != std::string::npos);

  ChannelSpec spec = ChannelSpec::Reducer(AppendReducer());
  ChannelState channel(&spec);
  Value broken_overwrite(serde::Ext{kOverwriteExtTag, "\xc1"});
  CHECK(channel.Update("log", {broken_overwrite}).status().IsCorruption());
}

// A channel whose reducer is AppendReducer() appends in place (so a long
// replayed delta history costs the size of its writes, not writes x value);
// the result must equal calling the reducer itself, fold by fold, from
// every kind of current value.
TEST_CASE("append in place equals the append reducer's result") {
  const BinaryReducer append = AppendReducer();
  // The same fold behind a plain function: ChannelState copies for it.
  const BinaryReducer copying = [append](const Value& current,
                                         const Value& write) {
    return append(current, write);
  };
  const std::vector<std::vector<Value>> steps = {
      {Value("a"), Arr({Value("b"), Value("c")})},
      {Arr({}), Value(7)},
      {MakeOverwrite(Value("solo")), Value("after")},
      {Arr({Arr({Value("nested")})}), Value::MakeMap()},
  };
  for (const std::optional<Value>& initial :
       {std::optional<Value>(), std::optional<Value>(Value()),
        std::optional<Value>(Value("scalar")),
        std::optional<Value>(Arr({Value(1)}))}) {
    CAPTURE(initial.has_value());
    for (ChannelKind kind : {ChannelKind::kReducer, ChannelKind::kDelta}) {
      ChannelSpec fast = ChannelSpec::Reducer(append, initial);
      ChannelSpec slow = ChannelSpec::Reducer(copying, initial);
      fast.kind = slow.kind = kind;
      ChannelState in_place(&fast);
      ChannelState reference(&slow);
      // What the reducer gives, fold by fold, from the same start.
      std::optional<Value> expected = initial;
      for (const std::vector<Value>& writes : steps) {
        CHECK(in_place.Update("log", writes).value());
        CHECK(reference.Update("log", writes).value());
        REQUIRE(in_place.has_value());
        CHECK(in_place.value() == reference.value());
        for (const Value& write : writes) {
          if (IsOverwrite(write)) {
            expected = Value("solo");
          } else {
            expected = expected ? append(*expected, write) : write;
          }
        }
        CHECK(in_place.value() == *expected);
      }
    }
  }
  // A concrete case: a scalar current becomes a list.
  CHECK(append(Value("x"), Value("y")) == Arr({Value("x"), Value("y")}));
  CHECK(append(Value(), Arr({Value(1)})) == Arr({Value(1)}));
}
