// BlobKeyBatch (read_keys.h).
#include "engine/rocksdb/read_keys.h"

#include <variant>

#include "engine/rocksdb/key_layout.h"

namespace rockpoint::rocksdb_layout {

BlobKeyBatch::BlobKeyBatch(std::string_view thread, std::string_view ns,
                           size_t expected_keys)
    : prefix_(NamespacePrefix(kBlobTag, thread, ns)) {
  buffer_.reserve(expected_keys * (prefix_.size() + 24));
  ends_.reserve(expected_keys);
}

void BlobKeyBatch::Add(std::string_view channel,
                       const serde::ChannelVersion& version) {
  suffix_.Clear();
  suffix_.AddString(channel);
  if (const auto* number = std::get_if<int64_t>(&version)) {
    suffix_.AddInt(*number);
  } else {
    suffix_.AddString(std::get<std::string>(version));
  }
  buffer_.append(prefix_);
  buffer_.append(suffix_.data());
  ends_.push_back(buffer_.size());
}

std::string_view BlobKeyBatch::key(size_t i) const {
  const size_t begin = i == 0 ? 0 : ends_[i - 1];
  return std::string_view(buffer_).substr(begin, ends_[i] - begin);
}

std::vector<rocksdb::Slice> BlobKeyBatch::slices() const {
  std::vector<rocksdb::Slice> out;
  out.reserve(ends_.size());
  for (size_t i = 0; i < ends_.size(); ++i) {
    const std::string_view k = key(i);
    out.emplace_back(k.data(), k.size());
  }
  return out;
}

}  // namespace rockpoint::rocksdb_layout
