// Tests of formats/stored_forms.h: the runtime's tagged forms round-trip
// with the persisted tags, anything else is plain, and a tagged value whose
// data does not decode is Corruption naming its form.
#include "formats/stored_forms.h"

#include <doctest/doctest.h>

#include <string>

#include "rockpoint/msgpack_codec.h"

namespace rockpoint::formats {
namespace {

using serde::Value;

TEST_CASE("a wrapped value unwraps to itself, in its form") {
  const Value inner(Value::Array{Value(1), Value("two"), Value()});
  for (StoredForm form : {StoredForm::kDeltaSnapshot, StoredForm::kOverwrite}) {
    const Value stored = WrapStoredForm(form, inner);
    CHECK(StoredFormOf(stored) == form);
    const Result<Value> unwrapped = UnwrapStoredForm(stored);
    REQUIRE(unwrapped.ok());
    CHECK(*unwrapped == inner);
  }
}

TEST_CASE("the tagged forms are the persisted Ext bytes") {
  const Value snapshot = WrapStoredForm(StoredForm::kDeltaSnapshot, Value(7));
  REQUIRE(snapshot.is_ext());
  CHECK(snapshot.as_ext().type == 0x44);
  CHECK(snapshot.as_ext().data == serde::EncodeMsgpack(Value(7)));
  const Value overwrite = WrapStoredForm(StoredForm::kOverwrite, Value());
  REQUIRE(overwrite.is_ext());
  CHECK(overwrite.as_ext().type == 0x4F);
  CHECK(overwrite.as_ext().data == serde::EncodeMsgpack(Value()));
}

TEST_CASE("plain values and other extensions are plain and stay as they are") {
  for (const Value& value :
       {Value(3), Value("text"), Value(serde::Ext{0x6A, "x"})}) {
    CHECK(StoredFormOf(value) == StoredForm::kPlain);
    CHECK(WrapStoredForm(StoredForm::kPlain, value) == value);
    const Result<Value> unwrapped = UnwrapStoredForm(value);
    REQUIRE(unwrapped.ok());
    CHECK(*unwrapped == value);
  }
  CHECK(std::string(StoredFormName(StoredForm::kPlain)).empty());
}

TEST_CASE("data that does not decode is Corruption naming the form") {
  // 0xc1 is the one byte msgpack never uses.
  const std::string bad = "\xc1";
  const Result<Value> snapshot =
      UnwrapStoredForm(Value(serde::Ext{kDeltaSnapshotExtTag, bad}));
  REQUIRE_FALSE(snapshot.ok());
  CHECK(snapshot.status().IsCorruption());
  CHECK(snapshot.status().message().starts_with("delta snapshot payload: "));
  const Result<Value> overwrite =
      UnwrapStoredForm(Value(serde::Ext{kOverwriteExtTag, bad}));
  REQUIRE_FALSE(overwrite.ok());
  CHECK(overwrite.status().message().starts_with("overwrite payload: "));
}

}  // namespace
}  // namespace rockpoint::formats
