// Store's public calls, and Store::Front's batch (store_front.h).
#include "rockpoint/store.h"

#include <chrono>
#include <map>
#include <mutex>

#include "engine/backend_rules.h"
#include "engine/store/store_front.h"
#include "engine/store/store_reads.h"
#include "engine/store/store_validation.h"
#include "engine/store/store_writes.h"

namespace rockpoint {

using store_internal::ItemAddress;
using store_internal::ItemKey;
using store_internal::MutationPlan;
using store_internal::ReadContext;
using store_internal::StoreMutation;
using store_internal::WriteContext;

namespace {

bool QueriesVectors(const std::vector<StoreOp>& ops) {
  for (const StoreOp& op : ops) {
    const auto* search = std::get_if<SearchOp>(&op);
    if (search != nullptr && search->query) return true;
  }
  return false;
}

}  // namespace

Store::Front::Front(std::unique_ptr<store_internal::StoreBackend> backend,
                    const StoreOpenOptions& options, std::string name,
                    std::unique_ptr<store_internal::VectorIndex> index)
    : dims(options.index ? std::optional<size_t>(options.index->dims)
                         : std::nullopt),
      backend_(std::move(backend)),
      index_(std::move(index)),
      options_(options),
      name_(std::move(name)) {
  if (options_.ttl.sweep_interval_minutes && !options_.read_only) {
    StartSweeper();
  }
}

Store::Front::~Front() { (void)Close(); }

int64_t Store::Front::Now() const {
  if (options_.clock) return options_.clock();
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Result<std::vector<StoreOpResult>> Store::Front::Batch(
    const std::vector<StoreOp>& ops) {
  std::shared_lock life(life_mu_);
  if (closed_) return StoreClosedError();
  for (const StoreOp& op : ops) {
    RP_RETURN_IF_ERROR(store_internal::ValidateOp(op, options_.limits, dims,
                                                  options_.read_only, name_));
  }
  const int64_t now = Now();
  const bool refresh_on_read =
      options_.ttl.refresh_on_read && !options_.read_only;
  std::vector<StoreOpResult> results;
  results.reserve(ops.size());
  std::vector<const PutOp*> puts;
  std::vector<ItemAddress> refreshes;
  {
    std::shared_lock<std::shared_mutex> index_in_step;
    if (index_ && QueriesVectors(ops)) {
      index_in_step = std::shared_lock<std::shared_mutex>(commit_mu_);
    }
    RP_ASSIGN_OR_RETURN(std::unique_ptr<store_internal::StoreReader> reader,
                        backend_->NewReader());
    const ReadContext context{*reader, now, index_.get(), options_.index};
    for (const StoreOp& op : ops) {
      if (const auto* get = std::get_if<GetOp>(&op)) {
        RP_ASSIGN_OR_RETURN(std::optional<StoreItem> item,
                            store_internal::GetItem(context, *get));
        if (item && item->expires_at_us && get->refresh_ttl &&
            refresh_on_read) {
          refreshes.push_back({item->ns, item->key});
        }
        results.emplace_back(std::move(item));
      } else if (const auto* search = std::get_if<SearchOp>(&op)) {
        RP_ASSIGN_OR_RETURN(std::vector<StoreItem> items,
                            store_internal::SearchItems(context, *search));
        for (const StoreItem& item : items) {
          if (item.expires_at_us && search->refresh_ttl && refresh_on_read) {
            refreshes.push_back({item.ns, item.key});
          }
        }
        results.emplace_back(std::move(items));
      } else if (const auto* list = std::get_if<ListNamespacesOp>(&op)) {
        RP_ASSIGN_OR_RETURN(std::vector<Namespace> namespaces,
                            store_internal::ListNamespaces(context, *list));
        results.emplace_back(std::move(namespaces));
      } else {
        puts.push_back(&std::get<PutOp>(op));
        results.emplace_back(std::monostate());
      }
    }
  }
  if (!puts.empty() || !refreshes.empty()) {
    RP_RETURN_IF_ERROR(ApplyWrites(puts, refreshes, now));
  }
  return results;
}

Status Store::Front::ApplyWrites(const std::vector<const PutOp*>& puts,
                                 const std::vector<ItemAddress>& refreshes,
                                 int64_t now_us) {
  // The last put of each key wins.
  std::map<std::string, const PutOp*> last_put;
  for (const PutOp* put : puts) last_put[ItemKey(put->ns, put->key)] = put;

  base::MutexLock lock(&write_mu_);
  RP_ASSIGN_OR_RETURN(std::unique_ptr<store_internal::StoreReader> reader,
                      backend_->NewReader());
  const WriteContext context{*reader, now_us, options_};
  MutationPlan plan(*reader);
  for (const auto& [unused, put] : last_put) {
    RP_RETURN_IF_ERROR(plan.AddPut(context, *put));
  }
  for (const ItemAddress& address : refreshes) {
    if (last_put.count(ItemKey(address.ns, address.key)) != 0) continue;
    RP_RETURN_IF_ERROR(plan.AddRefresh(context, address));
  }
  RP_ASSIGN_OR_RETURN(std::vector<StoreMutation> mutations, plan.Finish());
  reader.reset();
  if (mutations.empty()) return Status::OK();
  // A lost refresh only shortens a TTL: only puts wait for the disk.
  const bool sync = options_.sync_writes && !puts.empty();
  return Commit(mutations, sync);
}

Status Store::Front::Commit(const std::vector<StoreMutation>& mutations,
                            bool sync) {
  std::unique_lock<std::shared_mutex> in_step;
  if (index_) in_step = std::unique_lock<std::shared_mutex>(commit_mu_);
  RP_RETURN_IF_ERROR(backend_->Write(mutations, sync));
  if (index_) return index_->Apply(mutations);
  return Status::OK();
}

Result<uint64_t> Store::Front::SweepExpired() {
  std::shared_lock life(life_mu_);
  if (closed_) return StoreClosedError();
  if (options_.read_only) {
    return Status::InvalidArgument("store opened read-only: " + name_);
  }
  const int64_t now = Now();
  uint64_t total = 0;
  for (;;) {
    RP_ASSIGN_OR_RETURN(store_internal::MutationPlan::SweepCount count,
                        SweepOnce(now));
    total += count.removed;
    if (count.entries < options_.ttl.sweep_batch_size) return total;
  }
}

Result<store_internal::MutationPlan::SweepCount> Store::Front::SweepOnce(
    int64_t now_us) {
  base::MutexLock lock(&write_mu_);
  RP_ASSIGN_OR_RETURN(std::unique_ptr<store_internal::StoreReader> reader,
                      backend_->NewReader());
  const WriteContext context{*reader, now_us, options_};
  MutationPlan plan(*reader);
  RP_ASSIGN_OR_RETURN(store_internal::MutationPlan::SweepCount count,
                      plan.AddSweep(context, options_.ttl.sweep_batch_size));
  RP_ASSIGN_OR_RETURN(std::vector<StoreMutation> mutations, plan.Finish());
  reader.reset();
  if (!mutations.empty()) {
    RP_RETURN_IF_ERROR(Commit(mutations, options_.sync_writes));
  }
  return count;
}

Result<std::optional<StoreIndexStats>> Store::Front::IndexStats() {
  std::shared_lock life(life_mu_);
  if (closed_) return StoreClosedError();
  if (!index_) return std::optional<StoreIndexStats>();
  return std::optional<StoreIndexStats>(
      StoreIndexStats{index_->size(), index_->approximate_ready()});
}

Status Store::Front::Close() {
  StopSweeper();
  std::unique_lock life(life_mu_);
  if (closed_) return Status::OK();
  closed_ = true;
  if (index_) index_->Stop();
  return backend_->Close();
}

Store::Store(std::unique_ptr<Front> front, StoreOpenOptions options,
             std::string name)
    : front_(std::move(front)),
      options_(std::move(options)),
      name_(std::move(name)) {}

Store::~Store() = default;

Result<std::vector<StoreOpResult>> Store::Batch(
    const std::vector<StoreOp>& ops) {
  return front_->Batch(ops);
}

Result<std::optional<StoreItem>> Store::Get(const GetOp& op) {
  RP_ASSIGN_OR_RETURN(std::vector<StoreOpResult> results, Batch({op}));
  return std::move(std::get<std::optional<StoreItem>>(results[0]));
}

Status Store::Put(const PutOp& op) { return Batch({op}).status(); }

Status Store::Delete(const Namespace& ns, std::string_view key) {
  PutOp op;
  op.ns = ns;
  op.key = std::string(key);
  return Put(op);
}

Result<std::vector<StoreItem>> Store::Search(const SearchOp& op) {
  RP_ASSIGN_OR_RETURN(std::vector<StoreOpResult> results, Batch({op}));
  return std::move(std::get<std::vector<StoreItem>>(results[0]));
}

Result<std::vector<Namespace>> Store::ListNamespaces(
    const ListNamespacesOp& op) {
  RP_ASSIGN_OR_RETURN(std::vector<StoreOpResult> results, Batch({op}));
  return std::move(std::get<std::vector<Namespace>>(results[0]));
}

Result<uint64_t> Store::SweepExpired() { return front_->SweepExpired(); }

Result<std::optional<StoreIndexStats>> Store::IndexStats() {
  return front_->IndexStats();
}

Status Store::ExportItems(
    const std::function<Status(const StoredItem&)>& visit) {
  return front_->ExportItems(visit);
}

Status Store::ImportItems(const std::vector<StoredItem>& items) {
  return front_->ImportItems(items);
}

Result<StoreVerifyReport> Store::Verify() { return front_->Verify(); }

Status Store::Close() { return front_->Close(); }

std::optional<size_t> Store::dims() const { return front_->dims; }

}  // namespace rockpoint
