// The runtime's stored forms (see stored_forms.h).
#include "formats/stored_forms.h"

#include <string>

#include "rockpoint/msgpack_codec.h"

namespace rockpoint::formats {

StoredForm StoredFormOf(const serde::Value& value) {
  if (!value.is_ext()) return StoredForm::kPlain;
  switch (value.as_ext().type) {
    case kDeltaSnapshotExtTag:
      return StoredForm::kDeltaSnapshot;
    case kOverwriteExtTag:
      return StoredForm::kOverwrite;
    default:
      return StoredForm::kPlain;
  }
}

serde::Value WrapStoredForm(StoredForm form, const serde::Value& value) {
  switch (form) {
    case StoredForm::kPlain:
      return value;
    case StoredForm::kDeltaSnapshot:
      return serde::Value(
          serde::Ext{kDeltaSnapshotExtTag, serde::EncodeMsgpack(value)});
    case StoredForm::kOverwrite:
      return serde::Value(
          serde::Ext{kOverwriteExtTag, serde::EncodeMsgpack(value)});
  }
  return value;
}

Result<serde::Value> UnwrapStoredForm(const serde::Value& stored) {
  const StoredForm form = StoredFormOf(stored);
  if (form == StoredForm::kPlain) return stored;
  Result<serde::Value> inner = serde::DecodeMsgpack(stored.as_ext().data);
  if (!inner.ok()) {
    return Status::Corruption(std::string(StoredFormName(form)) +
                              " payload: " + inner.status().message());
  }
  return inner;
}

const char* StoredFormName(StoredForm form) {
  switch (form) {
    case StoredForm::kPlain:
      return "";
    case StoredForm::kDeltaSnapshot:
      return "delta snapshot";
    case StoredForm::kOverwrite:
      return "overwrite";
  }
  return "";
}

}  // namespace rockpoint::formats
