// Building blocks of get_delta_channel_history (rocksdb_delta.cpp), private
// to engine/rocksdb/: the ancestor scan of stage 1, the chain of ancestor
// ids, the cycle guard of the parent walk, and the write-key parser of
// stage 2. Each reuses its buffers from one ancestor (or write) to the
// next, so the walk allocates per result, not per record read.
//
// Thread-safety: objects of these classes belong to one call.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "keys/tuple.h"
#include "serde/record_views.h"

namespace rockpoint::delta_walk {

// Stage 1's iterator over ("cp", thread, ns): positions on checkpoints by
// id, mostly by Prev (ancestors usually lie just before their child), and
// decodes only their headers.
class AncestorScan {
 public:
  // REQUIRES: scan covers NamespacePrefix(kCheckpointTag, thread, ns) in
  // ScanOrder::kReverse; `cipher` (null for a plaintext store) outlives
  // this.
  AncestorScan(PrefixScan scan, const RecordCipher* cipher)
      : scan_(std::move(scan)), cipher_(cipher) {}

  // Decodes the header of checkpoint `id` into *header; false when there is
  // no such checkpoint. Corruption naming the key for an undecodable one.
  // *header is valid until the next call.
  Result<bool> Find(std::string_view id, serde::CheckpointHeaderView* header);

  // The tuple element of the id of the last Find (REQUIRES: it returned
  // true); valid until the next call.
  std::string_view id_element() const { return id_element_.data(); }

  // The latest visible checkpoint: its id into *id and header into *header;
  // false when there is none.
  Result<bool> Latest(std::string* id, serde::CheckpointHeaderView* header);

 private:
  Status DecodeHeader(serde::CheckpointHeaderView* header);

  PrefixScan scan_;
  const RecordCipher* const cipher_;
  std::string opened_;  // the last record opened, in an encrypted store
  keys::TupleWriter id_element_;  // reused: no allocation per ancestor
  std::string key_;
};

// The chain's members (chain[0] is the target's parent): each one's id and
// that id encoded as a tuple element (the last element of its checkpoint
// key and of its WritePrefix), packed in one buffer.
class Chain {
 public:
  void Append(std::string_view id, std::string_view element) {
    members_.push_back(Member{bytes_.size(), id.size(), element.size()});
    bytes_.append(id).append(element);
  }
  size_t size() const { return members_.size(); }
  // REQUIRES: i < size(). Valid until the next Append.
  std::string_view id(size_t i) const {
    return std::string_view(bytes_).substr(members_[i].begin,
                                           members_[i].id_size);
  }
  std::string_view element(size_t i) const {
    return std::string_view(bytes_).substr(
        members_[i].begin + members_[i].id_size, members_[i].element_size);
  }

 private:
  struct Member {
    size_t begin, id_size, element_size;
  };
  std::string bytes_;
  std::vector<Member> members_;
};

// Stops the parent walk at a cycle. The visited ids are the target's (when
// given) and the chain's. Ids that strictly decrease along the walk (ids are
// time-sortable, parents older) cannot repeat, so a hash set of them is
// built only at the first step that does not decrease.
class CycleGuard {
 public:
  void VisitTarget(std::string_view id) { target_.emplace(id); }
  // Marks `id`, the next chain member, visited; false if it already was.
  // REQUIRES: every id visited before and found is in `chain`.
  bool Visit(std::string_view id, const Chain& chain);

 private:
  std::optional<std::string> target_;
  bool use_set_ = false;
  std::unordered_set<std::string> set_;  // every visited id, once use_set_.
};

// The task part of a write key: (task_path, task_id, idx).
struct WriteTask {
  std::string_view task_path, task_id;  // valid until the next Parse
  int64_t idx = 0;
};

// Parses the task part of write keys; errors as
// rocksdb_layout::ParseWriteKeyTask (which parses the keys whose strings
// hold escaped NULs, into storage of its own).
class WriteTaskParser {
 public:
  // REQUIRES: key starts with a WritePrefix of `prefix_length` bytes.
  Status Parse(std::string_view key, size_t prefix_length, WriteTask* task);

 private:
  rocksdb_layout::WriteTaskParts unescaped_;
};

}  // namespace rockpoint::delta_walk
