// A channel whose reducer is AppendReducer() appends in place (so a long
// replayed delta history costs the size of its writes, not writes x value);
// the result must equal calling the reducer itself, fold by fold, from
// every kind of current value.
#include <doctest/doctest.h>

#include "runtime/channels.h"

using namespace rockpoint;
using namespace rockpoint::runtime;

namespace {

Value Arr(std::initializer_list<Value> items) {
  return Value(Value::Array(items));
}

}  // namespace

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
