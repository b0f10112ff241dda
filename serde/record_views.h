// Zero-copy decoders of the two records that bulk reads (the delta-history
// walk) decode by the thousand: the checkpoint header and the write record.
//
// Contract: DecodeCheckpointHeaderView accepts exactly the bytes
// DecodeCheckpointHeader accepts and yields the same header; likewise
// DecodeWriteRecordView and DecodeWriteRecord. The difference is the cost:
// the views point into the input instead of owning copies, and the common
// case is read by a direct msgpack reader that builds no tree. Any input the
// direct reader does not take (malformed, or merely unusual such as map keys
// out of order) goes to the reference decoder in records.cpp, so a
// rejection is the reference decoder's Corruption, word for word, and an
// unusual but valid record still decodes (into storage the view owns).
//
// Lifetime: views point into the decoded bytes or into the view object.
// REQUIRES: the decoded bytes outlive the view's use; the view is used only
// until the next decode into it (which reuses its capacity).
// Thread-safety: pure functions; a view object belongs to one thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "rockpoint/status.h"
#include "rockpoint/typed_value.h"
#include "serde/records.h"

namespace rockpoint::serde {

// A ChannelVersion whose string form points into decoded bytes.
using ChannelVersionView = std::variant<int64_t, std::string_view>;
ChannelVersion ToChannelVersion(const ChannelVersionView& version);

struct CheckpointHeaderView {
  std::optional<std::string_view> parent_id;
  // Unique channels, in stored order (ascending as the encoder writes them).
  std::vector<std::pair<std::string_view, ChannelVersionView>> channel_versions;
  // In stored order (sorted ascending as the encoder writes them).
  std::vector<std::string_view> stored_channels;
  bool hidden = false;

  // The version of `channel` in channel_versions, or nullptr.
  const ChannelVersionView* FindVersion(std::string_view channel) const;
  CheckpointHeader ToOwned() const;

  // The record of the last decode when the reference decoder produced it;
  // the views above then point into it. Not for callers.
  CheckpointHeader fallback_storage;
};

struct WriteRecordView {
  std::string_view channel;
  std::string_view type;   // the TypedValue's serializer tag.
  std::string_view bytes;  // the TypedValue's payload.

  WriteRecord ToOwned() const;

  // As in CheckpointHeaderView. Not for callers.
  WriteRecord fallback_storage;
};

// Decodes the header of the checkpoint record `record` into *out. On error
// *out is unspecified.
Status DecodeCheckpointHeaderView(std::string_view record,
                                  CheckpointHeaderView* out);
// Decodes the write record `record` into *out. On error *out is
// unspecified.
Status DecodeWriteRecordView(std::string_view record, WriteRecordView* out);

namespace internal {
// The direct readers alone, for tests: true when they decoded `record`
// (then exactly as the reference decoder would); false when the input is
// left to the reference decoder (*out unspecified).
bool DirectDecodeCheckpointHeader(std::string_view record,
                                  CheckpointHeaderView* out);
bool DirectDecodeWriteRecord(std::string_view record, WriteRecordView* out);
}  // namespace internal

}  // namespace rockpoint::serde
