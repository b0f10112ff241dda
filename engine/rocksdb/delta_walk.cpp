// Building blocks of get_delta_channel_history (delta_walk.h).
#include "engine/rocksdb/delta_walk.h"

namespace rockpoint::delta_walk {
namespace {

namespace layout = rocksdb_layout;

// Prev steps tried before a seek when the next ancestor lies further back.
constexpr int kMaxSteps = 8;

constexpr uint8_t kStringCode = static_cast<uint8_t>(keys::TypeCode::kString);
constexpr uint8_t kEscapeByte = 0xff;  // 0x00 0xff is a NUL inside a string.

// Reads a string element without escaped NULs (the usual task id or path)
// from the front of *rest; false on anything else, *rest then unspecified.
bool ReadPlainString(std::string_view* rest, std::string_view* out) {
  if (rest->empty() || static_cast<uint8_t>((*rest)[0]) != kStringCode) {
    return false;
  }
  const size_t zero = rest->find('\0', 1);
  if (zero == std::string_view::npos) return false;
  if (zero + 1 < rest->size() &&
      static_cast<uint8_t>((*rest)[zero + 1]) == kEscapeByte) {
    return false;
  }
  *out = rest->substr(1, zero - 1);
  rest->remove_prefix(zero + 1);
  return true;
}

}  // namespace

Result<bool> AncestorScan::Find(std::string_view id,
                                serde::CheckpointHeaderView* header) {
  // CheckpointKey(thread, ns, id): the scan's prefix + the id element.
  id_element_.Clear();
  id_element_.AddString(id);
  key_.assign(scan_.prefix()).append(id_element_.data());
  const std::string_view key = key_;
  int steps = 0;
  while (scan_.Valid() && scan_.key() > key && steps++ < kMaxSteps) {
    scan_.Next();  // reverse order: the previous key
  }
  if (!scan_.Valid() || scan_.key() != key) scan_.SeekTo(key);
  if (!scan_.Valid() || scan_.key() != key) {
    RP_RETURN_IF_ERROR(scan_.status("delta history"));
    return false;
  }
  RP_RETURN_IF_ERROR(DecodeHeader(header));
  return true;
}

Result<bool> AncestorScan::Latest(std::string* id,
                                  serde::CheckpointHeaderView* header) {
  for (PrefixScan::Entry entry : scan_) {
    RP_RETURN_IF_ERROR(DecodeHeader(header));
    if (header->hidden) continue;
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseCheckpointKey(entry.key()));
    *id = std::move(parts.checkpoint_id);
    return true;
  }
  RP_RETURN_IF_ERROR(scan_.status("delta history"));
  return false;
}

Status AncestorScan::DecodeHeader(serde::CheckpointHeaderView* header) {
  std::string_view record = scan_.value();
  if (cipher_ != nullptr) {
    RP_RETURN_IF_ERROR(
        cipher_->Open(scan_.key(), record, "checkpoint record", &opened_));
    record = opened_;
  }
  Status status = serde::DecodeCheckpointHeaderView(record, header);
  if (!status.ok()) {
    return layout::CorruptionAt("checkpoint record", scan_.key(), status);
  }
  return Status::OK();
}

bool CycleGuard::Visit(std::string_view id, const Chain& chain) {
  if (!use_set_) {
    if (chain.size() > 0) {
      if (id < chain.id(chain.size() - 1)) return true;
    } else if (!target_ || id < *target_) {
      return true;
    }
    // The first step that does not decrease: from here on, a set.
    use_set_ = true;
    if (target_) set_.insert(*target_);
    for (size_t i = 0; i < chain.size(); ++i) set_.emplace(chain.id(i));
  }
  return set_.emplace(id).second;
}

Status WriteTaskParser::Parse(std::string_view key, size_t prefix_length,
                              WriteTask* task) {
  std::string_view rest = key.substr(prefix_length);
  if (ReadPlainString(&rest, &task->task_path) &&
      ReadPlainString(&rest, &task->task_id)) {
    keys::TupleReader reader(rest);
    if (reader.ReadInt(&task->idx).ok() && reader.done()) {
      return Status::OK();
    }
  }
  // Escaped NULs or a malformed key: the layout's parser (and its errors).
  RP_ASSIGN_OR_RETURN(unescaped_,
                      layout::ParseWriteKeyTask(key, prefix_length));
  task->task_path = unescaped_.task_path;
  task->task_id = unescaped_.task_id;
  task->idx = unescaped_.idx;
  return Status::OK();
}

}  // namespace rockpoint::delta_walk
