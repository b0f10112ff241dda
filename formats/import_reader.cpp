// ImportThreads: an export read back through the Checkpointer interface,
// one thread at a time into the store an ImportSink gives.
//
// Values are stored by put's new_versions, which the format does not carry:
// a checkpoint's new_versions are the channels whose version differs from
// its parent's (or all, without a parent in the input), plus any channel
// whose value line has not been stored yet. That reproduces every read the
// export recorded (see FORMAT_JSONL.md, "Import"). A hidden checkpoint is
// put, then hidden, as prune would have left it.
#include <map>
#include <set>

#include "formats/export_format.h"
#include "formats/import_writes.h"
#include "formats/json_text.h"
#include "formats/printable.h"
#include "formats/value_json.h"

namespace rockpoint::formats {
namespace {

using VersionKey = std::pair<std::string, ChannelVersion>;

// The writes of one (checkpoint, task_path, task_id), replayed with one
// PutWrites whose list positions reproduce each stored idx.
struct WriteGroup {
  std::string thread, ns, checkpoint_id, task_path, task_id;
  std::vector<PendingWrite> writes;
  std::set<int64_t> idxs;  // of `writes`.
  int64_t regular = 0;     // writes with idx >= 0.
  void Clear() {
    writes.clear();
    idxs.clear();
    regular = 0;
  }
  bool SameGroup(const WriteLine& line) const {
    return !writes.empty() && line.thread == thread && line.ns == ns &&
           line.checkpoint_id == checkpoint_id &&
           line.write.task_path == task_path && line.write.task_id == task_id;
  }
};

class Importer {
 public:
  Importer(ImportSink& sink, const ImportOptions& options,
           const ProgressFn& progress)
      : sink_(sink), options_(options), progress_(progress) {}

  Result<ExportCounts> Run(std::istream& in);

 private:
  Status HandleLine(const Json& json);
  Status StartNamespace(const std::string& thread, const std::string& ns);
  Status EndThread();
  Status AddValue(ValueLine line);
  Status AddCheckpoint(CheckpointLine line);
  Status AddWrite(WriteLine line);
  Status FlushWrites();

  ImportSink& sink_;
  const ImportOptions& options_;
  // The current thread's store; nullptr while its lines are only read.
  Checkpointer* target_ = nullptr;
  const ProgressFn& progress_;

  ExportCounts counts_;
  std::optional<ExportCounts> trailer_;
  std::set<std::string> threads_seen_;
  // State of the current (thread, ns).
  std::optional<std::pair<std::string, std::string>> current_;
  std::map<VersionKey, TypedValue> values_;
  std::set<VersionKey> stored_;
  std::map<std::string, ChannelVersions> versions_by_id_;
  WriteGroup group_;
};

Status AtLine(uint64_t number, const Status& status) {
  return Status::InvalidArgument("line " + std::to_string(number) + ": " +
                                 status.message());
}

Result<ExportCounts> Importer::Run(std::istream& in) {
  std::string text;
  uint64_t number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (options_.interrupted && options_.interrupted()) {
      return Status::Aborted("interrupted");
    }
    if (trailer_)
      return AtLine(number,
                    Status::InvalidArgument("content after the end line"));
    // Checked before parsing: nothing deeper is ever held (value_json.h).
    if (Status nesting = CheckJsonNesting(text); !nesting.ok()) {
      return AtLine(number, nesting);
    }
    Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded() || !json.is_object()) {
      return AtLine(number, Status::InvalidArgument("not a JSON object"));
    }
    if (number == 1) {
      if (!json.contains("kind") || json["kind"] != "header") {
        return AtLine(number, Status::InvalidArgument(
                                  "expected the header line (is this a "
                                  "rockpoint export?)"));
      }
      Status header = CheckHeader(json);
      if (!header.ok()) return AtLine(number, header);
      continue;
    }
    Status handled = HandleLine(json);
    if (!handled.ok()) {
      return handled.IsInvalidArgument() ? AtLine(number, handled) : handled;
    }
  }
  if (in.bad()) return Status::IOError("cannot read the import input");
  if (number == 0) return Status::InvalidArgument("input is empty");
  if (!trailer_) {
    return Status::InvalidArgument("input is truncated: no end line after " +
                                   std::to_string(number) + " lines");
  }
  if (Status flushed = FlushWrites(); !flushed.ok()) {
    return flushed.IsInvalidArgument() ? AtLine(number, flushed) : flushed;
  }
  if (trailer_->checkpoints != counts_.checkpoints ||
      trailer_->values != counts_.values ||
      trailer_->writes != counts_.writes) {
    return Status::InvalidArgument(
        "end line counts do not match the lines read (checkpoints " +
        std::to_string(counts_.checkpoints) + ", values " +
        std::to_string(counts_.values) + ", writes " +
        std::to_string(counts_.writes) + ")");
  }
  RP_RETURN_IF_ERROR(EndThread());
  return counts_;
}

Status Importer::HandleLine(const Json& json) {
  const std::string kind =
      json.contains("kind") && json["kind"].is_string() ? json["kind"] : "";
  if (kind == "value") {
    RP_ASSIGN_OR_RETURN(ValueLine line,
                        ValueLineFromJson(json, Dialect::kExport));
    return AddValue(std::move(line));
  }
  if (kind == "checkpoint") {
    RP_ASSIGN_OR_RETURN(CheckpointLine line,
                        CheckpointLineFromJson(json, Dialect::kExport));
    return AddCheckpoint(std::move(line));
  }
  if (kind == "write") {
    RP_ASSIGN_OR_RETURN(WriteLine line,
                        WriteLineFromJson(json, Dialect::kExport));
    return AddWrite(std::move(line));
  }
  if (kind == "end") {
    RP_ASSIGN_OR_RETURN(ExportCounts counts, TrailerFromJson(json));
    trailer_ = counts;
    return Status::OK();
  }
  return Status::InvalidArgument(
      "kind must be \"value\", \"checkpoint\", \"write\" or \"end\"");
}

Status Importer::StartNamespace(const std::string& thread,
                                const std::string& ns) {
  if (current_ && current_->first == thread && current_->second == ns) {
    return Status::OK();
  }
  RP_RETURN_IF_ERROR(FlushWrites());
  const bool new_thread = !current_ || current_->first != thread;
  if (new_thread) RP_RETURN_IF_ERROR(EndThread());
  current_.emplace(thread, ns);
  values_.clear();
  stored_.clear();
  versions_by_id_.clear();
  if (!new_thread) return Status::OK();
  if (!threads_seen_.insert(thread).second) {
    return Status::InvalidArgument(
        "thread " + Printable(thread) +
        " appears again after another thread (an export keeps each "
        "thread's lines together)");
  }
  RP_ASSIGN_OR_RETURN(target_, sink_.BeginThread(thread));
  return Status::OK();
}

Status Importer::EndThread() {
  if (!current_) return Status::OK();
  target_ = nullptr;
  return sink_.EndThread(current_->first);
}

Status Importer::AddValue(ValueLine line) {
  RP_RETURN_IF_ERROR(StartNamespace(line.thread, line.ns));
  ++counts_.values;
  VersionKey key(std::move(line.channel), std::move(line.version));
  if (!values_.emplace(std::move(key), std::move(line.value)).second) {
    return Status::InvalidArgument("duplicate value line");
  }
  return Status::OK();
}

Status Importer::AddCheckpoint(CheckpointLine line) {
  RP_RETURN_IF_ERROR(StartNamespace(line.thread, line.ns));
  RP_RETURN_IF_ERROR(FlushWrites());
  ++counts_.checkpoints;
  Checkpoint& checkpoint = line.checkpoint;
  const ChannelVersions* parent_versions = nullptr;
  if (line.parent_id) {
    auto parent = versions_by_id_.find(*line.parent_id);
    if (parent != versions_by_id_.end()) parent_versions = &parent->second;
  }
  ChannelVersions new_versions;
  for (const auto& [channel, version] : checkpoint.channel_versions) {
    VersionKey key(channel, version);
    bool changed = parent_versions == nullptr;
    if (!changed) {
      auto inherited = parent_versions->find(channel);
      changed =
          inherited == parent_versions->end() || inherited->second != version;
    }
    auto value = values_.find(key);
    const bool unstored_value =
        value != values_.end() && !stored_.contains(key);
    if (!changed && !unstored_value) continue;
    new_versions.emplace(channel, version);
    if (value != values_.end()) {
      checkpoint.channel_values.emplace(channel, value->second);
    }
    stored_.insert(std::move(key));
  }
  if (!versions_by_id_.emplace(checkpoint.id, checkpoint.channel_versions)
           .second) {
    return Status::InvalidArgument("duplicate checkpoint " +
                                   Printable(checkpoint.id));
  }
  if (target_ != nullptr) {
    CheckpointConfig config{line.thread, line.ns, line.parent_id};
    RP_ASSIGN_OR_RETURN(
        CheckpointConfig stored,
        target_->Put(config, checkpoint, line.metadata, new_versions));
    // Its writes follow; put_writes stores them on a hidden checkpoint too.
    if (line.hidden) RP_RETURN_IF_ERROR(target_->HideCheckpoint(stored));
  }
  if (progress_) progress_(counts_.checkpoints);
  return Status::OK();
}

Status Importer::AddWrite(WriteLine line) {
  RP_RETURN_IF_ERROR(StartNamespace(line.thread, line.ns));
  ++counts_.writes;
  // A write follows its checkpoint's line; one that follows none would be
  // stored where no read and no export ever reaches it.
  if (!versions_by_id_.contains(line.checkpoint_id)) {
    return Status::InvalidArgument(
        "write of checkpoint " + Printable(line.checkpoint_id) +
        ", which is not in the input before it (thread " +
        Printable(line.thread) + " ns " + Printable(line.ns) +
        "): an orphan write");
  }
  const std::optional<int64_t> special = SpecialWriteIndex(line.write.channel);
  if (special ? line.write.idx != *special : line.write.idx < 0) {
    return Status::InvalidArgument(
        "write.idx " + std::to_string(line.write.idx) +
        " does not fit channel " + Printable(line.write.channel));
  }
  if (!group_.SameGroup(line)) {
    RP_RETURN_IF_ERROR(FlushWrites());
    group_.thread = line.thread;
    group_.ns = line.ns;
    group_.checkpoint_id = line.checkpoint_id;
    group_.task_path = line.write.task_path;
    group_.task_id = line.write.task_id;
  }
  // Bounded work: the list FlushWrites builds is at most kMaxWriteIdxGap
  // longer than the input's writes.
  const int64_t regular_before = group_.regular;
  if (!special && line.write.idx - regular_before > kMaxWriteIdxGap) {
    return Status::InvalidArgument(
        "write.idx " + std::to_string(line.write.idx) + " is more than " +
        std::to_string(kMaxWriteIdxGap) + " beyond the " +
        std::to_string(regular_before) + " regular writes of task " +
        Printable(line.write.task_id) + " before it");
  }
  if (!group_.idxs.insert(line.write.idx).second) {
    return Status::InvalidArgument("duplicate write idx " +
                                   std::to_string(line.write.idx));
  }
  if (!special) ++group_.regular;
  group_.writes.push_back(std::move(line.write));
  return Status::OK();
}

Status Importer::FlushWrites() {
  if (group_.writes.empty()) return Status::OK();
  Result<std::vector<ChannelWrite>> list =
      WriteList(group_.writes, group_.task_id);
  if (!list.ok()) return list.status();
  Status status;
  if (target_ != nullptr) {
    status = target_->PutWrites(
        CheckpointConfig{group_.thread, group_.ns, group_.checkpoint_id}, *list,
        group_.task_id, group_.task_path);
  }
  group_.Clear();
  return status;
}

}  // namespace

Result<ExportCounts> ImportThreads(std::istream& in, ImportSink& sink,
                                   const ImportOptions& options,
                                   const ProgressFn& progress) {
  Importer importer(sink, options, progress);
  return importer.Run(in);
}

Result<ExportCounts> ImportStore(std::istream& in, Checkpointer& target,
                                 const ProgressFn& progress) {
  class Direct final : public ImportSink {
   public:
    explicit Direct(Checkpointer& target) : target_(target) {}
    Result<Checkpointer*> BeginThread(const std::string&) override {
      return &target_;
    }
    Status EndThread(const std::string&) override { return Status::OK(); }

   private:
    Checkpointer& target_;
  } sink(target);
  return ImportThreads(in, sink, ImportOptions{}, progress);
}

}  // namespace rockpoint::formats
