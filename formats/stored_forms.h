// The forms the runtime stores values in (runtime/FORMAT.md, "Values"):
// a plain msgpack Value, or one wrapped as the Ext of a tag of
// rockpoint/stored_forms.h whose data is the msgpack encoding of the inner
// value. The runtime writes and reads them (rockpoint/runtime/channels.h),
// the CLI shows them (tools/cli/runtime_forms.h).
//
// Thread-safety: pure functions.
#pragma once

#include "rockpoint/status.h"
#include "rockpoint/stored_forms.h"
#include "rockpoint/value.h"

namespace rockpoint::formats {

enum class StoredForm {
  kPlain,
  kDeltaSnapshot,  // Ext kDeltaSnapshotExtTag: a delta channel's full value.
  kOverwrite,      // Ext kOverwriteExtTag: a write replacing the value.
};

// The form `value` is stored in: kDeltaSnapshot or kOverwrite for an Ext of
// its tag, kPlain for anything else.
StoredForm StoredFormOf(const serde::Value& value);

// `value` stored in `form`: Ext{tag, EncodeMsgpack(value)}, or `value`
// itself for kPlain.
serde::Value WrapStoredForm(StoredForm form, const serde::Value& value);

// The value `stored` holds: the decoded data of a delta snapshot or an
// overwrite, anything else as it is. Corruption "<StoredFormName> payload:
// <why>" when the data does not decode.
Result<serde::Value> UnwrapStoredForm(const serde::Value& stored);

// "delta snapshot", "overwrite"; "" for kPlain.
const char* StoredFormName(StoredForm form);

}  // namespace rockpoint::formats
