// VerifyStore (rocksdb_maintenance.h): one pass over each column family at
// one snapshot, then the cross-checks between records and index entries.
//
// Memory: one small entry per checkpoint and per index entry (ids only,
// never values), so a store of millions of checkpoints verifies in a few
// hundred MB at most.
#include <map>
#include <set>
#include <tuple>

#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "engine/rocksdb/rocksdb_maintenance.h"
#include "keys/tuple.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint {
namespace {

namespace layout = rocksdb_layout;
using CheckpointId = std::tuple<std::string, std::string, std::string>;
using NamespaceId = std::pair<std::string, std::string>;

constexpr uint64_t kProgressEvery = 1000;

// What the cross-checks need of one checkpoint record.
struct RecordInfo {
  bool decoded = false;  // false: the record is corrupt, skip its checks.
  bool hidden = false;
  std::optional<std::string> run_id;
  std::optional<std::string> parent_id;
};

// The index entries found, by kind.
struct IndexEntries {
  std::set<CheckpointId> ts;
  std::set<CheckpointId> hidden;
  std::map<CheckpointId, std::set<std::string>> runs;
  std::set<NamespaceId> threads;
  // The hidden counts (hc entries) that decode.
  std::map<NamespaceId, uint64_t> hidden_counts;
};

class Verifier {
 public:
  Verifier(RocksDbCheckpointer& backend, const VerifyProgressFn& progress)
      : backend_(backend), progress_(progress), snapshot_(backend) {}

  Result<VerifyReport> Run() {
    RP_RETURN_IF_ERROR(ScanCheckpoints());
    RP_RETURN_IF_ERROR(ScanBlobs());
    RP_RETURN_IF_ERROR(ScanWrites());
    RP_RETURN_IF_ERROR(ScanIndex());
    RP_RETURN_IF_ERROR(CheckMeta());
    CheckRecordsAgainstIndex();
    CheckHiddenCounts();
    CheckParents();
    return std::move(report_);
  }

 private:
  void Problem(const char* severity, const char* check, std::string_view key,
               std::string detail) {
    (std::string_view(severity) == "error" ? report_.errors
                                           : report_.warnings)++;
    if (report_.problems.size() < VerifyReport::kMaxProblems) {
      report_.problems.push_back(
          {severity, check, keys::Describe(key), std::move(detail)});
    }
  }
  void Tick() {
    if (++examined_ % kProgressEvery == 0 && progress_) progress_(examined_);
  }
  // Scans every entry of `family`, calling `visit(key, value)`.
  template <typename Visit>
  Status ScanAll(rocksdb::ColumnFamilyHandle* family, Visit visit) {
    PrefixScan scan = backend_.Scan(family, snapshot_.Read(), "");
    for (PrefixScan::Entry entry : scan) {
      visit(entry.key(), entry.value());
      Tick();
    }
    return scan.status("verify " + family->GetName());
  }
  void CheckPayload(std::string_view key, const TypedValue& value,
                    const char* what) {
    if (value.type != serde::kMsgpackType) return;
    auto decoded = serde::DecodeMsgpack(value.bytes);
    if (!decoded.ok()) {
      Problem("error", "payload-decodes", key,
              std::string(what) + " of type msgpack does not decode: " +
                  decoded.status().message());
    }
  }
  // The plaintext of the record `value` under `key` (in an encrypted store,
  // opened into *buffer), or nullopt after reporting that it does not
  // authenticate.
  std::optional<std::string_view> Opened(std::string_view key,
                                         std::string_view value,
                                         const char* what,
                                         std::string* buffer) {
    auto plain = backend_.Plain(key, value, what, buffer);
    if (plain.ok()) return *plain;
    Problem("error", "record-authenticates", key, plain.status().message());
    return std::nullopt;
  }
  static std::string KeyOf(const CheckpointId& id) {
    return layout::CheckpointKey(std::get<0>(id), std::get<1>(id),
                                 std::get<2>(id));
  }

  Status ScanCheckpoints();
  void CheckValuesPresent(const layout::CheckpointKeyParts& id,
                          const serde::CheckpointHeader& header);
  Status ScanBlobs();
  Status ScanWrites();
  Status ScanIndex();
  Status CheckMeta();
  void CheckRecordsAgainstIndex();
  void CheckHiddenCounts();
  void CheckParents();

  RocksDbCheckpointer& backend_;
  const VerifyProgressFn& progress_;
  ScopedSnapshot snapshot_;
  VerifyReport report_;
  uint64_t examined_ = 0;
  std::map<CheckpointId, RecordInfo> records_;
  IndexEntries index_;
};

Status Verifier::ScanCheckpoints() {
  return ScanAll(
      backend_.checkpoints, [&](std::string_view key, std::string_view value) {
        auto parts = layout::ParseCheckpointKey(key);
        if (!parts.ok()) {
          Problem("error", "key-parses", key, parts.status().message());
          return;
        }
        ++report_.checkpoints;
        RecordInfo& info =
            records_[{parts->thread, parts->ns, parts->checkpoint_id}];
        std::string buffer;
        const auto plain = Opened(key, value, "checkpoint record", &buffer);
        if (!plain) return;
        auto record = serde::DecodeCheckpointRecord(*plain);
        if (!record.ok()) {
          Problem("error", "record-decodes", key,
                  "checkpoint record does not decode: " +
                      record.status().message());
          return;
        }
        info.decoded = true;
        info.hidden = record->header.hidden;
        info.run_id = IndexedRunId(record->metadata);
        info.parent_id = record->header.parent_id;
        if (info.hidden) ++report_.hidden_checkpoints;
        if (!record->metadata.is_map()) {
          Problem("error", "record-decodes", key, "metadata is not a map");
        }
        for (const TypedValue& send :
             record->pending_sends.value_or(std::vector<TypedValue>{})) {
          CheckPayload(key, send, "pending send");
        }
        CheckValuesPresent(*parts, record->header);
      });
}

// Every (channel, version) the checkpoint names resolves to a value record,
// or is one no put ever stored (CheckMissingValue).
void Verifier::CheckValuesPresent(const layout::CheckpointKeyParts& id,
                                  const serde::CheckpointHeader& header) {
  const rocksdb::ReadOptions read = snapshot_.Read();
  rocksdb::PinnableSlice value;
  for (const auto& [channel, version] : header.channel_versions) {
    const std::string key = layout::BlobKey(id.thread, id.ns, channel, version);
    value.Reset();
    const rocksdb::Status status =
        backend_.db->Get(read, backend_.blobs, key, &value);
    if (!status.IsNotFound()) continue;  // read errors: ScanBlobs reports.
    Status missing = backend_.CheckMissingValue(
        read, id.thread, id.ns, id.checkpoint_id, header.stored_channels,
        header.parent_id, channel, version, key);
    if (!missing.ok()) {
      Problem("error", "value-present", key, missing.message());
    }
  }
}

Status Verifier::ScanBlobs() {
  return ScanAll(
      backend_.blobs, [&](std::string_view key, std::string_view value) {
        auto parts = layout::ParseBlobKey(key);
        if (!parts.ok()) {
          Problem("error", "key-parses", key, parts.status().message());
          return;
        }
        ++report_.blobs;
        std::string buffer;
        const auto plain = Opened(key, value, "blob record", &buffer);
        if (!plain) return;
        auto blob = serde::DecodeBlobRecord(*plain);
        if (!blob.ok()) {
          Problem("error", "record-decodes", key,
                  "value record does not decode: " + blob.status().message());
          return;
        }
        if (!blob->empty) CheckPayload(key, blob->value, "value");
      });
}

Status Verifier::ScanWrites() {
  return ScanAll(backend_.writes, [&](std::string_view key,
                                      std::string_view value) {
    auto parts = layout::ParseWriteKey(key);
    if (!parts.ok()) {
      Problem("error", "key-parses", key, parts.status().message());
      return;
    }
    ++report_.writes;
    std::string buffer;
    const auto plain = Opened(key, value, "write record", &buffer);
    if (!plain) return;
    auto write = serde::DecodeWriteRecord(*plain);
    if (!write.ok()) {
      Problem("error", "record-decodes", key,
              "write record does not decode: " + write.status().message());
      return;
    }
    CheckPayload(key, write->value, "write");
    const std::optional<int64_t> special = SpecialWriteIndex(write->channel);
    if (special ? parts->idx != *special : parts->idx < 0) {
      Problem("error", "write-index", key,
              "idx " + std::to_string(parts->idx) + " does not fit channel \"" +
                  write->channel + "\"");
    }
    if (!records_.contains({parts->thread, parts->ns, parts->checkpoint_id})) {
      Problem("warning", "write-has-checkpoint", key,
              "a write of a checkpoint that has no record (put_writes "
              "without put, or a lost record)");
    }
  });
}

Status Verifier::ScanIndex() {
  return ScanAll(backend_.index, [&](std::string_view key,
                                     std::string_view value) {
    ++report_.index_entries;
    keys::TupleReader reader(key);
    std::string tag;
    if (!reader.ReadString(&tag).ok()) {
      Problem("error", "key-parses", key, "index key without a tag");
      return;
    }
    const auto points_at = [&](const CheckpointId& id, bool want_hidden,
                               const char* kind) {
      auto record = records_.find(id);
      if (record == records_.end()) {
        Problem(
            "error", "index-points-at-record", key,
            std::string(kind) + " entry of a checkpoint that has no record");
      } else if (record->second.decoded &&
                 record->second.hidden != want_hidden) {
        Problem("error", "index-points-at-record", key,
                std::string(kind) + " entry of a " +
                    (want_hidden ? "visible" : "hidden") + " checkpoint");
      }
    };
    if (tag == layout::kTimestampTag) {
      auto parts = layout::ParseTimestampKey(key);
      if (!parts.ok()) {
        Problem("error", "key-parses", key, parts.status().message());
        return;
      }
      CheckpointId id{parts->thread, parts->ns, parts->checkpoint_id};
      points_at(id, false, "ts");
      index_.ts.insert(std::move(id));
    } else if (tag == layout::kRunTag) {
      auto parts = layout::ParseRunKey(key);
      if (!parts.ok()) {
        Problem("error", "key-parses", key, parts.status().message());
        return;
      }
      CheckpointId id{parts->thread, parts->ns, parts->checkpoint_id};
      points_at(id, false, "run");
      auto record = records_.find(id);
      if (record != records_.end() && record->second.decoded &&
          record->second.run_id != parts->run_id) {
        Problem("error", "index-points-at-record", key,
                "run entry disagrees with the record's metadata.run_id");
      }
      index_.runs[std::move(id)].insert(std::move(parts->run_id));
    } else if (tag == layout::kHiddenTag) {
      auto parts = layout::ParseHiddenKey(key);
      if (!parts.ok()) {
        Problem("error", "key-parses", key, parts.status().message());
        return;
      }
      CheckpointId id{parts->thread, parts->ns, parts->checkpoint_id};
      points_at(id, true, "hd");
      index_.hidden.insert(std::move(id));
    } else if (tag == layout::kThreadTag) {
      auto parts = layout::ParseThreadKey(key);
      if (!parts.ok()) {
        Problem("error", "key-parses", key, parts.status().message());
        return;
      }
      index_.threads.emplace(parts->thread, parts->ns);
      auto first = records_.lower_bound({parts->thread, parts->ns, ""});
      if (first == records_.end() ||
          std::get<0>(first->first) != parts->thread ||
          std::get<1>(first->first) != parts->ns) {
        Problem("warning", "thread-entry-has-records", key,
                "namespace entry without checkpoints (list_threads omits it)");
      }
    } else if (tag == layout::kHiddenCountTag) {
      auto parts = layout::ParseHiddenCountKey(key);
      if (!parts.ok()) {
        Problem("error", "key-parses", key, parts.status().message());
        return;
      }
      auto count = layout::DecodeHiddenCount(key, value);
      if (!count.ok()) {
        Problem("error", "hidden-count", key, count.status().message());
        return;
      }
      index_.hidden_counts.emplace(NamespaceId{parts->thread, parts->ns},
                                   *count);
    } else {
      Problem("error", "key-parses", key, "unknown index tag \"" + tag + "\"");
    }
  });
}

Status Verifier::CheckMeta() {
  bool has_version = false;
  RP_RETURN_IF_ERROR(
      ScanAll(backend_.meta, [&](std::string_view key, std::string_view value) {
        if (key == layout::MetaKey(layout::kFormatVersionMeta))
          has_version = true;
      }));
  if (!has_version) {
    Problem("error", "meta", layout::MetaKey(layout::kFormatVersionMeta),
            "the store records no format version");
  }
  return Status::OK();
}

void Verifier::CheckRecordsAgainstIndex() {
  for (const auto& [id, info] : records_) {
    const std::string key = KeyOf(id);
    const NamespaceId ns{std::get<0>(id), std::get<1>(id)};
    if (!index_.threads.contains(ns)) {
      Problem("error", "record-has-index", key,
              "no th entry for the checkpoint's thread and namespace");
    }
    if (!info.decoded) continue;
    auto runs = index_.runs.find(id);
    const bool has_run = runs != index_.runs.end();
    if (info.hidden) {
      if (!index_.hidden.contains(id)) {
        Problem("error", "record-has-index", key,
                "hidden checkpoint without its hd entry");
      }
      if (index_.ts.contains(id) || has_run) {
        Problem("error", "record-has-index", key,
                "hidden checkpoint with a ts or run entry");
      }
      continue;
    }
    if (!index_.ts.contains(id)) {
      Problem("error", "record-has-index", key,
              "visible checkpoint without its ts entry");
    }
    if (info.run_id && (!has_run || !runs->second.contains(*info.run_id))) {
      Problem("error", "record-has-index", key,
              "visible checkpoint without its run entry");
    }
  }
}

// Each namespace's hd entries against its hidden count, in a store whose
// format keeps them.
void Verifier::CheckHiddenCounts() {
  if (!backend_.hidden_counts) return;
  std::map<NamespaceId, uint64_t> entries;
  for (const CheckpointId& id : index_.hidden) {
    ++entries[{std::get<0>(id), std::get<1>(id)}];
  }
  for (const auto& [ns, count] : entries) {
    const auto said = index_.hidden_counts.find(ns);
    const uint64_t expected =
        said == index_.hidden_counts.end() ? 0 : said->second;
    if (expected != count) {
      Problem(
          "error", "hidden-count", layout::HiddenCountKey(ns.first, ns.second),
          "the namespace has " + std::to_string(count) +
              " hd entries, its hidden count says " + std::to_string(expected));
    }
  }
  for (const auto& [ns, count] : index_.hidden_counts) {
    if (entries.contains(ns)) continue;
    Problem("error", "hidden-count",
            layout::HiddenCountKey(ns.first, ns.second),
            "the namespace has no hd entries, its hidden count says " +
                std::to_string(count));
  }
}

void Verifier::CheckParents() {
  for (const auto& [id, info] : records_) {
    if (!info.decoded || !info.parent_id) continue;
    if (records_.contains(
            {std::get<0>(id), std::get<1>(id), *info.parent_id})) {
      continue;
    }
    Problem("warning", "parent-present", KeyOf(id),
            "parent \"" + *info.parent_id +
                "\" has no record (removed by prune or delete_for_runs; "
                "reads are unaffected)");
  }
}

}  // namespace

Result<VerifyReport> VerifyStore(RocksDbCheckpointer& store,
                                 const VerifyProgressFn& progress) {
  Verifier verifier(store, progress);
  return verifier.Run();
}

}  // namespace rockpoint
