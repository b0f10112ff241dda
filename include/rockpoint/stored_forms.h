// The Ext tags that mark the forms the runtime stores values in
// (runtime/FORMAT.md, "Values"). A channel value or write the runtime stores
// is a msgpack Value; two forms wrap one in an Ext whose data is the msgpack
// encoding of the inner value:
//   - kDeltaSnapshotExtTag: a delta snapshot, the full value of a delta
//     channel;
//   - kOverwriteExtTag: an overwrite write, which replaces a reducer
//     channel's value instead of being folded in.
// Everything that reads a store written by the runtime decodes them (the
// runtime, the CLI). Persisted: never renumber a tag. The runtime's users
// find them in rockpoint/runtime/channels.h too (MakeOverwrite, WrapSnapshot).
#pragma once

#include <cstdint>

namespace rockpoint {

inline constexpr int8_t kDeltaSnapshotExtTag = 0x44;  // 'D'
inline constexpr int8_t kOverwriteExtTag = 0x4F;      // 'O'

}  // namespace rockpoint
