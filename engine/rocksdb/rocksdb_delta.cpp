// get_delta_channel_history in two stages, never one lookup per ancestor:
//   1. one reverse iterator over ("cp", thread, ns): from the target, follow
//      parent ids (stepping over non-ancestors, seeking when they are far),
//      decoding only headers (as views, no copies), until every channel has
//      a seed candidate (a member whose stored_channels names it) or the
//      root; the candidates' blobs are then read by one MultiGet, and a
//      channel whose candidate turns out "empty" resumes the walk;
//   2. one iterator over ("wr", thread, ns) seeking each chain member's
//      writes, oldest member first; only the writes that go into the result
//      are copied.
#include <algorithm>

#include "engine/backend_rules.h"
#include "engine/rocksdb/delta_walk.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "keys/tuple.h"

namespace rockpoint {
namespace {

namespace layout = rocksdb_layout;

struct ChannelWalk {
  enum class State { kSearching, kCandidate, kDone };
  std::string_view channel;                // the caller's string.
  DeltaChannelHistory* history = nullptr;  // the result's entry.
  State state = State::kSearching;
  size_t scan_from = 0;  // first chain position not yet searched
  size_t position = 0;   // candidate / seed position
  size_t span = 0;       // chain members whose writes count (stage 2)
  // The chain members that store a value for the channel (stored_channels
  // and channel_versions both name it), in chain order, with the version.
  std::vector<std::pair<size_t, ChannelVersion>> stores;
  size_t next_store = 0;  // first entry of `stores` at or after scan_from
  std::optional<TypedValue> seed;
};

// REQUIRES: `walks` sorted by channel, unique.
ChannelWalk* FindWalk(std::vector<ChannelWalk>& walks,
                      std::string_view channel) {
  if (walks.size() == 1) {
    return walks[0].channel == channel ? &walks[0] : nullptr;
  }
  const auto it =
      std::lower_bound(walks.begin(), walks.end(), channel,
                       [](const ChannelWalk& walk, std::string_view c) {
                         return walk.channel < c;
                       });
  return it != walks.end() && it->channel == channel ? &*it : nullptr;
}

// Records that chain member `member` stores a value for the walked
// channels its header says it does.
void NoteStores(const serde::CheckpointHeaderView& header, size_t member,
                std::vector<ChannelWalk>& walks) {
  for (std::string_view channel : header.stored_channels) {
    ChannelWalk* walk = FindWalk(walks, channel);
    if (walk == nullptr) continue;
    if (!walk->stores.empty() && walk->stores.back().first == member) continue;
    const serde::ChannelVersionView* version = header.FindVersion(channel);
    if (version == nullptr) continue;
    walk->stores.emplace_back(member, serde::ToChannelVersion(*version));
  }
}

// Whether `element` >= `floor` + 0xff, for tuple elements.
bool AtOrAfterEnd(std::string_view element, std::string_view floor) {
  if (!element.starts_with(floor)) return element > floor;
  return element.size() > floor.size() &&
         static_cast<uint8_t>(element[floor.size()]) == 0xff;
}

// Whether `rest` (what follows the scan's prefix in a write key, REQUIRES:
// >= element) is under `element` (< element + 0xff): a write of that
// member.
bool InMember(std::string_view rest, std::string_view element) {
  return rest.starts_with(element) &&
         (rest.size() == element.size() ||
          static_cast<uint8_t>(rest[element.size()]) != 0xff);
}

// Stage 2: the writes of chain[0..longest), oldest member first, into the
// walks' histories. A channel takes the writes of chain[0..span).
// REQUIRES: `scan` covers NamespacePrefix(kWriteTag, thread, ns), forward.
Status ReadChainWrites(const RocksDbCheckpointer& backend, PrefixScan& scan,
                       const delta_walk::Chain& chain, size_t longest,
                       std::vector<ChannelWalk>& walks) {
  // WritePrefix(thread, ns, id) = the scan's prefix + the id element; keys
  // are compared past the scan's prefix, which they all share.
  const size_t base = scan.prefix().size();
  const auto rest = [&] { return scan.key().substr(base); };
  // The iterator sits at the first key >= the previous member's end
  // (`floor` + 0xff; none before it is skipped), so a member whose prefix
  // is >= that and <= the current key needs no seek: on a linear history
  // the members' writes are adjacent and stage 2 is one forward pass.
  std::string_view floor;
  std::string seek_key;
  serde::WriteRecordView record;  // reused for every write
  std::string opened;             // an opened record, in an encrypted store
  delta_walk::WriteTaskParser task_parser;
  delta_walk::WriteTask task;
  bool positioned = false;
  for (size_t member = longest; member-- > 0;) {
    const std::string_view id = chain.id(member);
    const std::string_view element = chain.element(member);
    const bool in_place = positioned && AtOrAfterEnd(element, floor) &&
                          (!scan.Valid() || rest() >= element);
    if (!in_place) {
      seek_key.assign(scan.prefix()).append(element);
      scan.SeekTo(seek_key);
    }
    positioned = true;
    floor = element;
    for (; scan.Valid() && InMember(rest(), element); scan.Next()) {
      const std::string_view key = scan.key();
      RP_ASSIGN_OR_RETURN(
          const std::string_view plain,
          backend.Plain(key, scan.value(), "write record", &opened));
      Status decoded = serde::DecodeWriteRecordView(plain, &record);
      if (!decoded.ok()) {
        return layout::CorruptionAt("write record", key, decoded);
      }
      ChannelWalk* walk = FindWalk(walks, record.channel);
      if (walk == nullptr || member >= walk->span) continue;
      std::vector<PendingWrite>& out = walk->history->writes;
      // Most histories have about one write per member and channel.
      if (out.empty()) out.reserve(member + 1);
      RP_RETURN_IF_ERROR(task_parser.Parse(key, base + element.size(), &task));
      out.push_back(PendingWrite{
          std::string(task.task_id), std::string(walk->channel),
          TypedValue{std::string(record.type), std::string(record.bytes)},
          std::string(task.task_path), task.idx, std::string(id)});
    }
    if (!scan.Valid()) RP_RETURN_IF_ERROR(scan.status("delta history"));
  }
  return Status::OK();
}

// The walks of `channels`, sorted by channel and deduplicated, each pointing
// at its (empty) entry of *result.
std::vector<ChannelWalk> StartWalks(const std::vector<std::string>& channels,
                                    DeltaHistory* result) {
  std::vector<ChannelWalk> walks(channels.size());
  for (size_t i = 0; i < channels.size(); ++i) walks[i].channel = channels[i];
  std::sort(walks.begin(), walks.end(),
            [](const ChannelWalk& a, const ChannelWalk& b) {
              return a.channel < b.channel;
            });
  walks.erase(std::unique(walks.begin(), walks.end(),
                          [](const ChannelWalk& a, const ChannelWalk& b) {
                            return a.channel == b.channel;
                          }),
              walks.end());
  for (ChannelWalk& walk : walks) {
    walk.history = &(*result)[std::string(walk.channel)];
  }
  return walks;
}

// Stage 1's parent walk: the target, then its ancestors appended one by one
// to the chain.
class ParentWalk {
 public:
  // REQUIRES: as delta_walk::AncestorScan's.
  ParentWalk(PrefixScan scan, const RecordCipher* cipher)
      : ancestors_(std::move(scan), cipher) {}

  // Positions on the target: checkpoint `id` when given, else the latest
  // visible checkpoint. NotFound when there is no such (visible) one.
  Status Start(const std::optional<std::string>& id) {
    if (id) {
      RP_ASSIGN_OR_RETURN(bool found, ancestors_.Find(*id, &header_));
      if (!found || header_.hidden) {
        return Status::NotFound(
            "checkpoint given by config.checkpoint_id does not exist");
      }
      visited_.VisitTarget(*id);
    } else {
      std::string latest;
      RP_ASSIGN_OR_RETURN(bool found, ancestors_.Latest(&latest, &header_));
      if (!found) {
        return Status::NotFound(
            "the thread and namespace of config have no checkpoint");
      }
      visited_.VisitTarget(latest);
    }
    // Copied: the header views the iterator's value.
    if (header_.parent_id) next_.emplace(*header_.parent_id);
    return Status::OK();
  }

  // Appends the next ancestor to the chain and notes in `walks` what it
  // stores; false at a root, a missing parent or a cycle.
  Result<bool> Extend(std::vector<ChannelWalk>& walks) {
    if (!next_ || !visited_.Visit(*next_, chain_)) return false;
    RP_ASSIGN_OR_RETURN(bool found, ancestors_.Find(*next_, &header_));
    if (!found) return false;
    chain_.Append(*next_, ancestors_.id_element());
    NoteStores(header_, chain_.size() - 1, walks);
    if (header_.parent_id) {
      next_->assign(*header_.parent_id);
    } else {
      next_.reset();
    }
    return true;
  }

  // chain()[0] is the target's parent.
  const delta_walk::Chain& chain() const { return chain_; }

 private:
  delta_walk::AncestorScan ancestors_;
  serde::CheckpointHeaderView header_;  // reused for every member
  delta_walk::CycleGuard visited_;
  delta_walk::Chain chain_;
  std::optional<std::string> next_;  // the next ancestor's id
};

// Moves each searching walk on to its next candidate (a chain member at or
// after scan_from that stores the channel). True when some walk found none
// in the chain so far: the chain must grow.
bool PickCandidates(std::vector<ChannelWalk>& walks, size_t chain_size) {
  bool searching = false;
  for (ChannelWalk& walk : walks) {
    if (walk.state != ChannelWalk::State::kSearching) continue;
    while (walk.next_store < walk.stores.size() &&
           walk.stores[walk.next_store].first < walk.scan_from) {
      ++walk.next_store;
    }
    if (walk.next_store < walk.stores.size()) {
      walk.state = ChannelWalk::State::kCandidate;
      walk.position = walk.stores[walk.next_store].first;
    } else {
      walk.scan_from = chain_size;
      searching = true;
    }
  }
  return searching;
}

// The root is reached: the searching walks end without a seed, over all of
// the chain.
void EndSearches(std::vector<ChannelWalk>& walks, size_t chain_size) {
  for (ChannelWalk& walk : walks) {
    if (walk.state == ChannelWalk::State::kSearching) {
      walk.state = ChannelWalk::State::kDone;
      walk.position = chain_size;
    }
  }
}

// Reads the candidates' blobs with one MultiGet: a candidate holding a
// value becomes its walk's seed; an "empty" one sends the walk searching on
// past it; an absent one is Corruption naming the value's key (the
// candidate's put stored it). False when no walk had a candidate.
Result<bool> CheckCandidates(const RocksDbCheckpointer& backend,
                             const rocksdb::ReadOptions& read,
                             std::string_view thread, std::string_view ns,
                             const delta_walk::Chain& chain,
                             std::vector<ChannelWalk>& walks) {
  std::vector<std::string> keys;
  std::vector<ChannelWalk*> pending;
  for (ChannelWalk& walk : walks) {
    if (walk.state != ChannelWalk::State::kCandidate) continue;
    keys.push_back(layout::BlobKey(thread, ns, walk.channel,
                                   walk.stores[walk.next_store].second));
    pending.push_back(&walk);
  }
  if (pending.empty()) return false;
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<rocksdb::PinnableSlice> values(keys.size());
  std::vector<rocksdb::Status> statuses(keys.size());
  backend.db->MultiGet(read, backend.blobs, keys.size(), slices.data(),
                       values.data(), statuses.data());
  for (size_t i = 0; i < pending.size(); ++i) {
    ChannelWalk& walk = *pending[i];
    if (statuses[i].IsNotFound()) {
      // The candidate's header says its put stored this value: a value
      // record may not vanish while the checkpoint that stored it stays.
      return Status::Corruption(
          "value record missing at " + keys::Describe(keys[i]) +
          ": the delta history walk reads it as the seed of channel, and "
          "the put of checkpoint " +
          std::string(walk.position < chain.size()
                          ? keys::Describe(layout::CheckpointKey(
                                thread, ns, chain.id(walk.position)))
                          : "?") +
          " stored it");
    }
    if (!statuses[i].ok()) {
      return ToStatus(statuses[i], "read " + keys::Describe(keys[i]));
    }
    std::string opened;
    RP_ASSIGN_OR_RETURN(const std::string_view plain,
                        backend.Plain(keys[i], values[i].ToStringView(),
                                      "blob record", &opened));
    auto decoded = serde::DecodeBlobRecord(plain);
    if (!decoded.ok()) {
      return layout::CorruptionAt("blob record", keys[i], decoded.status());
    }
    serde::BlobRecord blob = std::move(*decoded);
    if (!blob.empty) {
      walk.state = ChannelWalk::State::kDone;
      walk.seed = std::move(blob.value);
    } else {
      walk.state = ChannelWalk::State::kSearching;
      walk.scan_from = walk.position + 1;
    }
  }
  return true;
}

// Stage 1: extends the chain until every walk is done (has its seed, or
// reached the root).
Status FindSeeds(const RocksDbCheckpointer& backend,
                 const rocksdb::ReadOptions& read, std::string_view thread,
                 std::string_view ns, ParentWalk& parents,
                 std::vector<ChannelWalk>& walks) {
  while (true) {
    if (PickCandidates(walks, parents.chain().size())) {
      RP_ASSIGN_OR_RETURN(bool extended, parents.Extend(walks));
      if (extended) continue;
      EndSearches(walks, parents.chain().size());
    }
    RP_ASSIGN_OR_RETURN(bool checked, CheckCandidates(backend, read, thread, ns,
                                                      parents.chain(), walks));
    if (!checked) return Status::OK();
  }
}

// Moves each walk's seed into its history and sets its span: a channel
// takes the writes of chain[0..position] (its seed's own writes included).
// Returns the longest span.
size_t TakeSeeds(std::vector<ChannelWalk>& walks) {
  size_t longest = 0;
  for (ChannelWalk& walk : walks) {
    walk.span = walk.seed ? walk.position + 1 : walk.position;
    longest = std::max(longest, walk.span);
    walk.history->seed = std::move(walk.seed);
  }
  return longest;
}

}  // namespace

Result<DeltaHistory> RocksDbCheckpointer::DoGetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  DeltaHistory result;
  if (channels.empty()) return result;
  const std::string& thread = *config.thread_id;
  const std::string ns(NamespaceOf(config));
  std::vector<ChannelWalk> walks = StartWalks(channels, &result);
  ScopedSnapshot snapshot(*this);
  const rocksdb::ReadOptions read = snapshot.Read();

  // Stage 1: the target, then its ancestors.
  ParentWalk parents(
      Scan(checkpoints, read,
           layout::NamespacePrefix(layout::kCheckpointTag, thread, ns),
           ScanOrder::kReverse),
      cipher.get());
  RP_RETURN_IF_ERROR(parents.Start(config.checkpoint_id));
  RP_RETURN_IF_ERROR(FindSeeds(*this, read, thread, ns, parents, walks));

  // Stage 2: the chain's writes, oldest member first.
  const size_t longest = TakeSeeds(walks);
  PrefixScan pending_writes = Scan(
      writes, read, layout::NamespacePrefix(layout::kWriteTag, thread, ns));
  RP_RETURN_IF_ERROR(
      ReadChainWrites(*this, pending_writes, parents.chain(), longest, walks));
  return result;
}

}  // namespace rockpoint
