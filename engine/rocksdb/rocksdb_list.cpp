// list(): a cursor over RocksDB iterators at one snapshot; nothing is
// materialized beyond the tuple being returned.
//   * one (thread, ns): a reverse scan of ("cp", thread, ns);
//   * one thread, all namespaces: the namespaces' reverse scans merged
//     (k-way) by descending checkpoint_id;
//   * all threads: a reverse scan of the ("ts", checkpoint_id, thread, ns)
//     index, each entry's record read by one point Get.
// Hidden checkpoints are skipped unless include_hidden (which requires a
// thread, so only the record scans, which see them, are used).
// `before` positions the scans; filter and limit apply while iterating.
// Ties on checkpoint_id come out in descending (thread, ns) order.
#include <queue>

#include "engine/backend_rules.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "keys/tuple.h"

namespace rockpoint {
namespace {

namespace layout = rocksdb_layout;

// A checkpoint found by a stream; `record` is empty when the stream only
// knows the key (index scans).
struct Candidate {
  std::string thread, ns, checkpoint_id;
  std::optional<std::string> record;
};

// Candidates in descending (checkpoint_id, thread, ns) order.
class Stream {
 public:
  virtual ~Stream() = default;
  virtual Result<std::optional<Candidate>> Next() = 0;
};

// Reverse scan of ("cp", thread, ns).
class NamespaceStream final : public Stream {
 public:
  NamespaceStream(const RocksDbCheckpointer& backend,
                  const rocksdb::ReadOptions& read, std::string thread,
                  std::string ns, const std::optional<std::string>& only_id,
                  const std::optional<std::string>& before)
      : thread_(std::move(thread)),
        ns_(std::move(ns)),
        scan_(backend.Scan(
            backend.checkpoints, read,
            layout::NamespacePrefix(layout::kCheckpointTag, thread_, ns_),
            ScanOrder::kReverse)) {
    if (only_id) {
      const std::string key = layout::CheckpointKey(thread_, ns_, *only_id);
      if (before && *only_id >= *before) {
        exhausted_ = true;
        return;
      }
      scan_.SeekTo(key);
      exhausted_ = !scan_.Valid() || scan_.key() != key;
      single_ = true;
    } else if (before) {
      const std::string key = layout::CheckpointKey(thread_, ns_, *before);
      scan_.SeekTo(key);
      if (scan_.Valid() && scan_.key() == key) scan_.Next();
    } else {
      scan_.SeekToStart();
    }
  }

  Result<std::optional<Candidate>> Next() override {
    if (exhausted_ || !scan_.Valid()) {
      RP_RETURN_IF_ERROR(scan_.status("list"));
      return std::optional<Candidate>();
    }
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseCheckpointKey(scan_.key()));
    Candidate candidate{thread_, ns_, std::move(parts.checkpoint_id),
                        std::string(scan_.value())};
    if (single_) {
      exhausted_ = true;
    } else {
      scan_.Next();
    }
    return std::optional<Candidate>(std::move(candidate));
  }

 private:
  std::string thread_, ns_;
  PrefixScan scan_;  // reverse
  bool exhausted_ = false;
  bool single_ = false;
};

// k-way merge of streams by descending (checkpoint_id, ns).
class MergeStream final : public Stream {
 public:
  explicit MergeStream(std::vector<std::unique_ptr<Stream>> streams)
      : streams_(std::move(streams)) {}

  Result<std::optional<Candidate>> Next() override {
    if (!started_) {
      started_ = true;
      for (size_t i = 0; i < streams_.size(); ++i) RP_RETURN_IF_ERROR(Pull(i));
    }
    if (heap_.empty()) return std::optional<Candidate>();
    Head head = heap_.top();
    heap_.pop();
    RP_RETURN_IF_ERROR(Pull(head.stream));
    return std::optional<Candidate>(std::move(head.candidate));
  }

 private:
  struct Head {
    Candidate candidate;
    size_t stream;
  };
  struct Less {
    bool operator()(const Head& a, const Head& b) const {
      if (a.candidate.checkpoint_id != b.candidate.checkpoint_id) {
        return a.candidate.checkpoint_id < b.candidate.checkpoint_id;
      }
      return a.candidate.ns < b.candidate.ns;
    }
  };

  Status Pull(size_t stream) {
    RP_ASSIGN_OR_RETURN(auto next, streams_[stream]->Next());
    if (next) heap_.push(Head{std::move(*next), stream});
    return Status::OK();
  }

  std::vector<std::unique_ptr<Stream>> streams_;
  std::priority_queue<Head, std::vector<Head>, Less> heap_;
  bool started_ = false;
};

// Reverse scan of the ("ts", checkpoint_id, thread, ns) index.
class GlobalStream final : public Stream {
 public:
  GlobalStream(const RocksDbCheckpointer& backend,
               const rocksdb::ReadOptions& read, std::optional<std::string> ns,
               const std::optional<std::string>& only_id,
               const std::optional<std::string>& before)
      : ns_(std::move(ns)),
        scan_(backend.Scan(
            backend.index, read,
            only_id ? layout::ThreadPrefix(layout::kTimestampTag, *only_id)
                    : layout::TagPrefix(layout::kTimestampTag),
            ScanOrder::kReverse)),
        exhausted_(only_id && before && *only_id >= *before) {
    if (!only_id && before) {
      // Every key of id `before` extends this prefix; smaller ids sort
      // before it.
      scan_.SeekTo(layout::ThreadPrefix(layout::kTimestampTag, *before));
    } else {
      scan_.SeekToStart();
    }
  }

  Result<std::optional<Candidate>> Next() override {
    for (; !exhausted_ && scan_.Valid(); scan_.Next()) {
      RP_ASSIGN_OR_RETURN(auto parts, layout::ParseTimestampKey(scan_.key()));
      if (ns_ && parts.ns != *ns_) continue;
      scan_.Next();
      return std::optional<Candidate>(
          Candidate{std::move(parts.thread), std::move(parts.ns),
                    std::move(parts.checkpoint_id), std::nullopt});
    }
    RP_RETURN_IF_ERROR(scan_.status("list"));
    return std::optional<Candidate>();
  }

 private:
  std::optional<std::string> ns_;
  PrefixScan scan_;  // reverse
  bool exhausted_;
};

class ListCursor final : public TupleCursor {
 public:
  ListCursor(RocksDbCheckpointer& backend,
             std::unique_ptr<ScopedSnapshot> snapshot,
             const ListOptions& options)
      : backend_(backend),
        snapshot_(std::move(snapshot)),
        read_(snapshot_->Read()),
        filter_(options.filter),
        limit_(options.limit),
        include_hidden_(options.include_hidden) {
    if (options.before) before_ = options.before->checkpoint_id;
  }

  const rocksdb::ReadOptions& read() const { return read_; }
  const std::optional<std::string>& before() const { return before_; }
  void set_stream(std::unique_ptr<Stream> stream) {
    stream_ = std::move(stream);
  }

  Result<std::optional<CheckpointTuple>> Next() override {
    if (done_ || stream_ == nullptr || (limit_ && returned_ >= *limit_)) {
      return std::optional<CheckpointTuple>();
    }
    auto next = NextMatching();
    if (!next.ok() || !next->has_value()) {
      done_ = true;
      stream_.reset();
    } else {
      ++returned_;
    }
    return next;
  }

 private:
  Result<std::optional<CheckpointTuple>> NextMatching() {
    while (true) {
      RP_ASSIGN_OR_RETURN(auto candidate, stream_->Next());
      if (!candidate) return std::optional<CheckpointTuple>();
      if (before_ && candidate->checkpoint_id >= *before_) continue;
      const std::string key = layout::CheckpointKey(
          candidate->thread, candidate->ns, candidate->checkpoint_id);
      if (!candidate->record) {
        std::string value;
        rocksdb::Status status =
            backend_.db->Get(read_, backend_.checkpoints, key, &value);
        if (status.IsNotFound()) continue;  // index entry without a record
        RP_RETURN_IF_ERROR(ToStatus(status, "read " + keys::Describe(key)));
        candidate->record = std::move(value);
      }
      RP_ASSIGN_OR_RETURN(auto record,
                          backend_.DecodeRecordAt(key, *candidate->record));
      if (record.header.hidden && !include_hidden_) continue;
      if (!MetadataMatches(record.metadata, filter_)) continue;
      RP_ASSIGN_OR_RETURN(
          auto tuple,
          backend_.AssembleTuple(read_, candidate->thread, candidate->ns,
                                 candidate->checkpoint_id, std::move(record)));
      return std::optional<CheckpointTuple>(std::move(tuple));
    }
  }

  RocksDbCheckpointer& backend_;
  // Destroyed after stream_ (declared before it): iterators first.
  std::unique_ptr<ScopedSnapshot> snapshot_;
  rocksdb::ReadOptions read_;
  Value filter_;
  std::optional<size_t> limit_;
  bool include_hidden_;
  std::optional<std::string> before_;
  std::unique_ptr<Stream> stream_;
  size_t returned_ = 0;
  bool done_ = false;
};

}  // namespace

Result<std::unique_ptr<TupleCursor>> RocksDbCheckpointer::DoList(
    const ListOptions& options) {
  auto cursor = std::make_unique<ListCursor>(
      *this, std::make_unique<ScopedSnapshot>(*this), options);
  const rocksdb::ReadOptions& read = cursor->read();
  const std::optional<std::string>& before = cursor->before();
  const CheckpointConfig config = options.config.value_or(CheckpointConfig{});
  const std::optional<std::string>& only_id = config.checkpoint_id;

  if (!config.thread_id) {
    cursor->set_stream(std::make_unique<GlobalStream>(
        *this, read, config.checkpoint_ns, only_id, before));
  } else if (config.checkpoint_ns) {
    cursor->set_stream(std::make_unique<NamespaceStream>(
        *this, read, *config.thread_id, *config.checkpoint_ns, only_id,
        before));
  } else {
    RP_ASSIGN_OR_RETURN(auto namespaces, Namespaces(read, *config.thread_id));
    std::vector<std::unique_ptr<Stream>> streams;
    for (std::string& ns : namespaces) {
      streams.push_back(std::make_unique<NamespaceStream>(
          *this, read, *config.thread_id, std::move(ns), only_id, before));
    }
    cursor->set_stream(std::make_unique<MergeStream>(std::move(streams)));
  }
  return std::unique_ptr<TupleCursor>(std::move(cursor));
}

}  // namespace rockpoint
