// get_delta_channel_history in two stages, never one lookup per ancestor:
//   1. one reverse iterator over ("cp", thread, ns): from the target, follow
//      parent ids (stepping over non-ancestors, seeking when they are far),
//      decoding only CheckpointHeader, until every channel has a seed
//      candidate (in stored_channels) or the root; the candidates' blobs are
//      then read by one MultiGet, and a channel whose candidate turns out
//      "empty" resumes the walk;
//   2. one iterator over ("wr", thread, ns) seeking each chain member's
//      writes, oldest member first.
#include <deque>
#include <unordered_set>

#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "engine/validation.h"
#include "keys/tuple.h"

namespace rockpoint {
namespace {

namespace layout = rocksdb_layout;

// Prev steps tried before a seek when the next ancestor lies further back.
constexpr int kMaxSteps = 8;

struct Link {
  std::string id;
  serde::CheckpointHeader header;
};

struct ChannelWalk {
  enum class State { kSearching, kCandidate, kDone };
  State state = State::kSearching;
  size_t scan_from = 0;  // first chain position not yet searched
  size_t position = 0;   // candidate / seed position
  size_t span = 0;       // chain members whose writes count (stage 2)
  std::optional<TypedValue> seed;
};

bool Stores(const Link& link, const std::string& channel) {
  const auto& stored = link.header.stored_channels;
  return link.header.channel_versions.contains(channel) &&
         std::binary_search(stored.begin(), stored.end(), channel);
}

// Stage 1's iterator: positions on checkpoints by id, mostly by Prev.
class AncestorScan {
 public:
  // REQUIRES: scan covers NamespacePrefix(kCheckpointTag, thread, ns).
  explicit AncestorScan(std::unique_ptr<PrefixScan> scan)
      : scan_(std::move(scan)) {}

  // The header of `id`, or nullopt when there is no such checkpoint.
  Result<std::optional<serde::CheckpointHeader>> Find(const std::string& id) {
    // CheckpointKey(thread, ns, id): the scan's prefix + the id element.
    id_element_.Clear();
    id_element_.AddString(id);
    key_.assign(scan_->prefix).append(id_element_.data());
    const std::string_view key = key_;
    int steps = 0;
    while (scan_->Valid() && scan_->it->key().ToStringView() > key &&
           steps++ < kMaxSteps) {
      scan_->it->Prev();
    }
    if (!scan_->Valid() || scan_->it->key().ToStringView() != key) {
      scan_->SeekForPrev(key);
    }
    if (!scan_->Valid() || scan_->it->key().ToStringView() != key) {
      RP_RETURN_IF_ERROR(scan_->status("delta history"));
      return std::optional<serde::CheckpointHeader>();
    }
    RP_ASSIGN_OR_RETURN(auto header, Header());
    return std::optional<serde::CheckpointHeader>(std::move(header));
  }

  // The latest visible checkpoint: its id and header, or nullopt.
  Result<std::optional<Link>> Latest() {
    for (scan_->SeekToLast(); scan_->Valid(); scan_->it->Prev()) {
      RP_ASSIGN_OR_RETURN(auto header, Header());
      if (header.hidden) continue;
      RP_ASSIGN_OR_RETURN(auto parts, layout::ParseCheckpointKey(
                                          scan_->it->key().ToStringView()));
      return std::optional<Link>(
          Link{std::move(parts.checkpoint_id), std::move(header)});
    }
    RP_RETURN_IF_ERROR(scan_->status("delta history"));
    return std::optional<Link>();
  }

 private:
  Result<serde::CheckpointHeader> Header() {
    const std::string_view key = scan_->it->key().ToStringView();
    auto header =
        serde::DecodeCheckpointHeader(scan_->it->value().ToStringView());
    if (!header.ok()) {
      return layout::CorruptionAt("checkpoint record", key, header.status());
    }
    return std::move(header).value();
  }

  std::unique_ptr<PrefixScan> scan_;
  keys::TupleWriter id_element_;  // reused: no allocation per ancestor
  std::string key_;
};

}  // namespace

Result<DeltaHistory> RocksDbCheckpointer::Impl::GetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  if (!config.thread_id) {
    return Status::InvalidArgument("config.thread_id is missing");
  }
  DeltaHistory result;
  if (channels.empty()) return result;
  const std::string& thread = *config.thread_id;
  const std::string ns(NamespaceOf(config));
  std::map<std::string, ChannelWalk> walks;
  for (const std::string& channel : channels) {
    walks.emplace(channel, ChannelWalk{});
    result.emplace(channel, DeltaChannelHistory{});
  }
  ScopedSnapshot snapshot(db.get());
  const rocksdb::ReadOptions read = snapshot.Read();

  // Stage 1: the target, then its ancestors.
  AncestorScan ancestors(
      Scan(checkpoints, read,
           layout::NamespacePrefix(layout::kCheckpointTag, thread, ns)));
  std::optional<std::string> next;
  if (config.checkpoint_id) {
    RP_ASSIGN_OR_RETURN(auto target, ancestors.Find(*config.checkpoint_id));
    if (!target || target->hidden) {
      return Status::NotFound(
          "checkpoint given by config.checkpoint_id does not exist");
    }
    next = target->parent_id;
  } else {
    RP_ASSIGN_OR_RETURN(auto target, ancestors.Latest());
    if (!target) {
      return Status::NotFound(
          "the thread and namespace of config have no checkpoint");
    }
    next = target->header.parent_id;
  }

  // A deque: the ids stay in place, so `visited` can view them.
  std::deque<Link> chain;
  std::unordered_set<std::string_view> visited;
  if (config.checkpoint_id) visited.insert(*config.checkpoint_id);
  // Appends the next ancestor; false at a root, a missing parent or a cycle.
  const auto extend = [&]() -> Result<bool> {
    if (!next || visited.contains(*next)) return false;
    RP_ASSIGN_OR_RETURN(auto header, ancestors.Find(*next));
    if (!header) return false;
    chain.push_back(Link{std::move(*next), std::move(*header)});
    visited.insert(chain.back().id);
    next = chain.back().header.parent_id;
    return true;
  };

  while (true) {
    bool searching = false;
    for (auto& [channel, walk] : walks) {
      if (walk.state != ChannelWalk::State::kSearching) continue;
      for (; walk.scan_from < chain.size(); ++walk.scan_from) {
        if (Stores(chain[walk.scan_from], channel)) {
          walk.state = ChannelWalk::State::kCandidate;
          walk.position = walk.scan_from;
          break;
        }
      }
      searching |= walk.state == ChannelWalk::State::kSearching;
    }
    if (searching) {
      RP_ASSIGN_OR_RETURN(bool extended, extend());
      if (extended) continue;
      // Root reached: the searching channels have no seed.
      for (auto& [channel, walk] : walks) {
        if (walk.state == ChannelWalk::State::kSearching) {
          walk.state = ChannelWalk::State::kDone;
          walk.position = chain.size();  // all of the chain
        }
      }
    }
    // Verify the candidates with one MultiGet.
    std::vector<std::string> keys;
    std::vector<ChannelWalk*> pending;
    for (auto& [channel, walk] : walks) {
      if (walk.state != ChannelWalk::State::kCandidate) continue;
      const Link& link = chain[walk.position];
      keys.push_back(layout::BlobKey(thread, ns, channel,
                                     link.header.channel_versions.at(channel)));
      pending.push_back(&walk);
    }
    if (pending.empty()) break;
    std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
    std::vector<rocksdb::PinnableSlice> values(keys.size());
    std::vector<rocksdb::Status> statuses(keys.size());
    db->MultiGet(read, blobs, keys.size(), slices.data(), values.data(),
                 statuses.data());
    for (size_t i = 0; i < pending.size(); ++i) {
      ChannelWalk& walk = *pending[i];
      std::optional<serde::BlobRecord> blob;
      if (!statuses[i].IsNotFound()) {
        if (!statuses[i].ok()) {
          return ToStatus(statuses[i], "read " + keys::Describe(keys[i]));
        }
        auto decoded = serde::DecodeBlobRecord(values[i].ToStringView());
        if (!decoded.ok()) {
          return layout::CorruptionAt("blob record", keys[i], decoded.status());
        }
        blob = std::move(*decoded);
      }
      if (blob && !blob->empty) {
        walk.state = ChannelWalk::State::kDone;
        walk.seed = std::move(blob->value);
      } else {
        walk.state = ChannelWalk::State::kSearching;
        walk.scan_from = walk.position + 1;
      }
    }
  }

  // Stage 2: the chain's writes, oldest member first. A channel takes the
  // writes of chain[0..position] (its seed's own writes included).
  size_t longest = 0;
  for (auto& [channel, walk] : walks) {
    walk.span = walk.seed ? walk.position + 1 : walk.position;
    longest = std::max(longest, walk.span);
    result[channel].seed = std::move(walk.seed);
  }
  auto pending_writes = Scan(
      writes, read, layout::NamespacePrefix(layout::kWriteTag, thread, ns));
  // The iterator sits at the first key >= floor (none before it is
  // skipped), so a member whose prefix is >= floor and <= the current key
  // needs no seek: on a linear history the members' writes are adjacent and
  // stage 2 is one forward pass.
  // WritePrefix(thread, ns, id) = the scan's prefix + the id element.
  std::string floor, prefix, upper;
  keys::TupleWriter id_element;
  bool positioned = false;
  for (size_t member = longest; member-- > 0;) {
    const std::string& id = chain[member].id;
    id_element.Clear();
    id_element.AddString(id);
    prefix.assign(pending_writes->prefix).append(id_element.data());
    upper.assign(prefix).push_back('\xff');  // TuplePrefixUpperBound
    const bool in_place = positioned && floor <= prefix &&
                          (!pending_writes->Valid() ||
                           pending_writes->it->key().ToStringView() >= prefix);
    if (!in_place) pending_writes->Seek(prefix);
    positioned = true;
    floor.assign(upper);
    for (; pending_writes->Valid() &&
           pending_writes->it->key().ToStringView() < upper;
         pending_writes->it->Next()) {
      const std::string_view key = pending_writes->it->key().ToStringView();
      auto record =
          serde::DecodeWriteRecord(pending_writes->it->value().ToStringView());
      if (!record.ok()) {
        return layout::CorruptionAt("write record", key, record.status());
      }
      const auto walk = walks.find(record->channel);
      if (walk == walks.end()) continue;
      if (member >= walk->second.span) continue;
      RP_ASSIGN_OR_RETURN(auto parts,
                          layout::ParseWriteKeyTask(key, prefix.size()));
      result[record->channel].writes.push_back(PendingWrite{
          std::move(parts.task_id), record->channel, std::move(record->value),
          std::move(parts.task_path), parts.idx, id});
    }
    RP_RETURN_IF_ERROR(pending_writes->status("delta history"));
  }
  return result;
}

}  // namespace rockpoint
