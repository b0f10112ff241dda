// Direct decoders of the records get_tuple and list read per call: the whole
// checkpoint record and the blob record.
//
// Contract: DecodeCheckpointRecordDirect accepts exactly the bytes
// DecodeCheckpointRecord accepts and yields the same record (or the same
// Corruption, word for word); DecodeBlobRecordView likewise for
// DecodeBlobRecord. The difference is the cost: the common case is read by a
// direct msgpack reader (serde/msgpack_view_reader.h) that builds no tree,
// and a blob's strings point into the input instead of being copied. Any
// input the direct reader does not take (malformed, or merely unusual such as
// map keys out of order) goes to the reference decoder in records.cpp.
//
// Lifetime (BlobRecordView): views point into the decoded bytes or into the
// view object. REQUIRES: the decoded bytes outlive the view's use; the view
// is used only until the next decode into it.
// Thread-safety: pure functions; a view object belongs to one thread.
#pragma once

#include <string_view>

#include "rockpoint/status.h"
#include "serde/records.h"

namespace rockpoint::serde {

Result<CheckpointRecord> DecodeCheckpointRecordDirect(std::string_view record);

struct BlobRecordView {
  bool empty = false;
  std::string_view type;   // the TypedValue's serializer tag; "" when empty.
  std::string_view bytes;  // the TypedValue's payload; "" when empty.

  BlobRecord ToOwned() const;

  // The record of the last decode when the reference decoder produced it;
  // the views above then point into it. Not for callers.
  BlobRecord fallback_storage;
};

// Decodes the blob record `record` into *out. On error *out is unspecified.
Status DecodeBlobRecordView(std::string_view record, BlobRecordView* out);

namespace internal {
// The direct readers alone, for tests: true when they decoded `record`
// (then exactly as the reference decoder would); false when the input is
// left to the reference decoder (*out unspecified).
bool DirectDecodeCheckpointRecord(std::string_view record,
                                  CheckpointRecord* out);
bool DirectDecodeBlobRecord(std::string_view record, BlobRecordView* out);
}  // namespace internal

}  // namespace rockpoint::serde
