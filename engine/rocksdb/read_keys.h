// The blob keys of one checkpoint's channel_versions, built with the
// (thread, ns) prefix encoded once.
//
// Contract: key(i) equals rocksdb_layout::BlobKey(thread, ns, channel_i,
// version_i) byte for byte for the i-th Add: the tuple encoding is a
// concatenation of element encodings, so the shared prefix
// NamespacePrefix(kBlobTag, thread, ns) is written once and each key appends
// its channel and version. All keys live in one buffer.
//
// Thread-safety: an object belongs to one thread.
// REQUIRES: slices() is called after the last Add (Add may move the buffer).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "keys/tuple.h"
#include "rockpoint/typed_value.h"
#include "rocksdb/slice.h"

namespace rockpoint::rocksdb_layout {

class BlobKeyBatch {
 public:
  BlobKeyBatch(std::string_view thread, std::string_view ns,
               size_t expected_keys);

  void Add(std::string_view channel, const serde::ChannelVersion& version);

  size_t size() const { return ends_.size(); }
  std::string_view key(size_t i) const;
  // One slice per key, in Add order.
  std::vector<rocksdb::Slice> slices() const;

 private:
  std::string prefix_;
  std::string buffer_;        // the keys, back to back.
  std::vector<size_t> ends_;  // end offset of each key in buffer_.
  keys::TupleWriter suffix_;  // scratch: one key's channel and version.
};

}  // namespace rockpoint::rocksdb_layout
