// Store: long-term memory for agent graphs, LangGraph's BaseStore contract
// (docs/STORE.md) on rockpoint's engines.
//
// A store holds items: (namespace, key) -> a map Value, with the times it
// was created and last updated, an optional expiry, and optional vectors
// (one per indexed field) for similarity search. A namespace is a non-empty
// tuple of non-empty labels, none containing '.', the first not
// "langgraph". Operations are LangGraph's: Get, Put (a null value deletes),
// Search (namespace prefix, filter, optional query vector, limit, offset)
// and ListNamespaces (prefix/suffix conditions with "*" wildcards,
// max_depth, limit, offset), alone or in one Batch.
//
// Embeddings are computed by the caller: a Put carries the vectors of its
// indexed fields, a Search its query vector. The store keeps them and
// answers top-k by cosine similarity.
//
// Expiry: an item whose expiry has passed is never returned, whether or not
// a sweep has removed it yet; SweepExpired (or the sweeper, when
// StoreTtlOptions::sweep_interval_minutes is set) deletes such items.
//
// Errors are values: bad input is InvalidArgument and changes nothing; a
// closed store is Aborted "store is closed"; a read-only store refuses
// every write with InvalidArgument.
//
// Thread-safety: any number of threads may call one Store at once. Writes
// (a Batch's puts, refreshes, sweeps) are serialized; each is atomic and,
// with sync_writes, durable when the call returns. Reads see a consistent
// snapshot.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rockpoint/status.h"
#include "rockpoint/value.h"

namespace rockpoint {

// A namespace: labels from the outermost in.
using Namespace = std::vector<std::string>;

// Microseconds since the Unix epoch, UTC.
using StoreClock = std::function<int64_t()>;

struct StoreItem {
  Namespace ns;
  std::string key;
  serde::Value value;  // always a map.
  int64_t created_at_us = 0;
  int64_t updated_at_us = 0;
  // When the item expires; nullopt: never.
  std::optional<int64_t> expires_at_us;
  // Search with a query only: the best cosine similarity of the item's
  // vectors to the query; nullopt for an item without vectors.
  std::optional<double> score;
};

// How long a put item lives.
struct ItemTtl {
  enum class Kind { kStoreDefault, kNever, kMinutes };
  Kind kind = Kind::kStoreDefault;
  double minutes = 0;  // kMinutes only; > 0.

  static ItemTtl StoreDefault() { return {}; }
  static ItemTtl Never() { return {Kind::kNever, 0}; }
  static ItemTtl Minutes(double m) { return {Kind::kMinutes, m}; }
};

// One indexed field's embedding. `field` names where the text came from
// (LangGraph's path, e.g. "content" or "tags.1"); a put keeps at most one
// vector per field.
struct FieldVector {
  std::string field;
  std::vector<float> vector;  // StoreIndexOptions::dims floats.
};

// Everything a store keeps of one item: what ExportItems reads and
// ImportItems writes back.
struct StoredItem {
  Namespace ns;
  std::string key;
  serde::Value value;  // a map.
  int64_t created_at_us = 0;
  int64_t updated_at_us = 0;
  std::optional<int64_t> expires_at_us;
  // What a refresh on read restarts the expiry with.
  std::optional<double> ttl_minutes;
  std::vector<FieldVector> vectors;  // in field order.
};

// What Verify found.
struct StoreVerifyReport {
  uint64_t items = 0;
  uint64_t namespaces = 0;
  uint64_t vectors = 0;
  uint64_t expiry_entries = 0;
  // Entries of the index by update time (one per item).
  uint64_t recent_entries = 0;
  // Items whose expiry has passed, not swept yet.
  uint64_t expired_items = 0;
  // One line per inconsistency (empty: the store is sound).
  std::vector<std::string> problems;
};

struct GetOp {
  Namespace ns;
  std::string key;
  // Restart the item's TTL (when it has one and refresh_on_read is set).
  bool refresh_ttl = true;
};

struct PutOp {
  Namespace ns;
  std::string key;
  // A map stores (replacing any item at the key, keeping its created_at);
  // nullopt deletes the item and its vectors.
  std::optional<serde::Value> value;
  // The item's vectors; replaces all it had. Empty: the item has none.
  std::vector<FieldVector> vectors;
  ItemTtl ttl;
};

struct SearchOp {
  // Items whose namespace starts with these labels (empty: every item).
  Namespace ns_prefix;
  // Conditions on the value's top-level fields, all of which must hold
  // (docs/STORE.md): a scalar or array is equality; a map of operators
  // ($eq $ne $gt $gte $lt $lte) compares; any other map matches nested
  // fields the same way. A missing field never matches (except $ne).
  serde::Value::Map filter;
  // Rank by cosine similarity to this vector (dims floats), best first,
  // items without vectors after; nullopt: newest updated first.
  std::optional<std::vector<float>> query;
  size_t limit = 10;
  size_t offset = 0;
  bool refresh_ttl = true;
};

enum class NamespaceMatch { kPrefix, kSuffix };

// Namespaces whose first (kPrefix) or last (kSuffix) labels are `path`;
// a "*" label matches any one label.
struct NamespaceCondition {
  NamespaceMatch match = NamespaceMatch::kPrefix;
  Namespace path;
};

struct ListNamespacesOp {
  std::vector<NamespaceCondition> conditions;  // all must hold.
  // Cut each namespace to its first max_depth labels (then deduplicated).
  std::optional<size_t> max_depth;
  size_t limit = 100;
  size_t offset = 0;
};

using StoreOp = std::variant<GetOp, PutOp, SearchOp, ListNamespacesOp>;

// One result per op, in order: GetOp -> optional item, PutOp -> monostate,
// SearchOp -> items, ListNamespacesOp -> namespaces (sorted).
using StoreOpResult =
    std::variant<std::monostate, std::optional<StoreItem>,
                 std::vector<StoreItem>, std::vector<Namespace>>;

struct StoreTtlOptions {
  // The TTL of a put that asks for the store's default; nullopt: such items
  // never expire. Default: nullopt.
  std::optional<double> default_ttl_minutes;
  // Reads (Get, Search) with refresh_ttl restart the TTL of what they
  // return. Default: true.
  bool refresh_on_read = true;
  // Run SweepExpired in a background thread this often; nullopt: only when
  // called. Default: nullopt.
  std::optional<double> sweep_interval_minutes;
  // Most items one sweep pass deletes in one atomic write. Default: 1000.
  size_t sweep_batch_size = 1000;
};

struct StoreIndexOptions {
  // Floats per vector; fixed when the store first gets an index. Default: 0
  // (invalid: must be set).
  size_t dims = 0;
  // While the store holds at most this many vectors, a query scores every
  // vector under its prefix (exact). Above it, an approximate HNSW index
  // (built in the background from the stored vectors, and kept up to date)
  // answers, falling back to exact search when too few of its nearest
  // vectors pass the prefix and filter. Default: 20,000.
  size_t exact_search_max_vectors = 20'000;
  // HNSW: links per node (M, 2 to 10000), candidates while building and
  // while searching (ef, >= 1). Higher is more accurate and slower.
  // Defaults: 16, 100, 128.
  size_t hnsw_links = 16;
  size_t hnsw_build_candidates = 100;
  size_t hnsw_search_candidates = 128;
};

// The state of a store's vector index.
struct StoreIndexStats {
  // Vectors held: one per indexed field of every item.
  uint64_t vectors = 0;
  // Whether the approximate (HNSW) index answers queries: it is built in the
  // background once vectors exceeds exact_search_max_vectors.
  bool approximate_ready = false;
};

struct StoreLimits {
  // Largest encoded item value, in bytes. Default: 64 MiB.
  size_t max_value_bytes = size_t{64} << 20;
  // Largest key or namespace label, in bytes. Default: 64 KiB.
  size_t max_id_bytes = size_t{64} << 10;
  // Most labels in a namespace. Default: 64.
  size_t max_namespace_depth = 64;
};

struct StoreOpenOptions {
  // Create the store if it does not exist. Default: true.
  bool create_if_missing = true;
  // Open for reading only; every write is InvalidArgument. Default: false.
  bool read_only = false;
  // A write returns once it is durable (RocksDB: WAL fsync). Default: true.
  bool sync_writes = true;
  StoreLimits limits;
  StoreTtlOptions ttl;
  // Vector search; nullopt: puts carry no vectors and searches no query.
  // Default: nullopt.
  std::optional<StoreIndexOptions> index;
  // The time source, in microseconds since the epoch. Default: the system
  // clock (empty function).
  StoreClock clock;
};

class Store;

// Opens (or creates) the store `url` names: "rocksdb:PATH", a bare PATH (a
// RocksDB directory, which may hold a checkpoint store too: in one process
// the two share one open database, docs/STORE.md) or "memory:". Other
// schemes are NotSupported. Busy when another process holds the directory
// or this one has the store open; NotFound when read_only or not
// create_if_missing and no item store is there; InvalidArgument for a
// directory that is not a rockpoint store, beside an encrypted checkpoint
// store, for options.index whose dims differ from the store's, or for
// invalid options.
Result<std::unique_ptr<Store>> OpenStore(std::string_view url,
                                         const StoreOpenOptions& options = {});

class Store {
 public:
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
  // Closes the store (stops the sweeper, releases the lock).
  ~Store();

  // Runs `ops`: every read sees the store as it was before the batch; then
  // all puts are applied in one atomic write (the last put to a key wins).
  // Any invalid op fails the whole batch, which changes nothing.
  Result<std::vector<StoreOpResult>> Batch(const std::vector<StoreOp>& ops);

  Result<std::optional<StoreItem>> Get(const GetOp& op);
  Status Put(const PutOp& op);
  Status Delete(const Namespace& ns, std::string_view key);
  Result<std::vector<StoreItem>> Search(const SearchOp& op);
  Result<std::vector<Namespace>> ListNamespaces(const ListNamespacesOp& op);

  // Deletes every item whose expiry has passed (in atomic writes of at most
  // sweep_batch_size items); returns how many.
  Result<uint64_t> SweepExpired();

  // Calls `visit` with every stored item (expired ones too), in key order,
  // from one snapshot; stops at the first error `visit` returns.
  // REQUIRES: `visit` does not write to this store (a memory store's
  // snapshot holds its lock until the export ends).
  Status ExportItems(const std::function<Status(const StoredItem&)>& visit);
  // Writes `items` as they are (times, expiry and vectors included),
  // replacing the items at their keys, in one atomic write. Checked as puts
  // are (InvalidArgument, nothing written); ttl_minutes, when set, must be
  // positive and come with an expiry.
  Status ImportItems(const std::vector<StoredItem>& items);
  // Reads every record and checks the families against each other: records
  // and vectors decode, namespace counts match the items, each expiry entry
  // matches its item's expiry and each item with an expiry has its entry,
  // each vector belongs to an item and has the store's dims.
  Result<StoreVerifyReport> Verify();

  // The vector index's state; nullopt without options.index.
  Result<std::optional<StoreIndexStats>> IndexStats();

  // Stops the sweeper, waits for calls in flight, makes what was written
  // without sync_writes (and TTL refreshes) durable (RocksDB: syncs the
  // WAL), closes the backend. Idempotent; later calls return Aborted
  // "store is closed".
  Status Close();

  // The vector length searches and puts use; nullopt without an index.
  std::optional<size_t> dims() const;
  // "rocksdb:PATH" or "memory:".
  const std::string& name() const { return name_; }
  const StoreOpenOptions& options() const { return options_; }

 private:
  class Front;
  friend Result<std::unique_ptr<Store>> OpenStore(
      std::string_view url, const StoreOpenOptions& options);
  Store(std::unique_ptr<Front> front, StoreOpenOptions options,
        std::string name);

  std::unique_ptr<Front> front_;
  StoreOpenOptions options_;
  std::string name_;
};

}  // namespace rockpoint
