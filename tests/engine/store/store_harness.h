// Shared harness of the Store contract tests (rockpoint/store.h): a store on
// either backend with a controllable clock, value builders, and helpers that
// REQUIRE success so a test reads as the scenario it checks.
//
// Every contract case runs once per backend: `StoreHarness h(EachBackend())`
// opens doctest subcases "memory" and "rocksdb", so a failure names the
// backend it happened on. Cases about persistence use Backend::kRocksDb only.
//
// Names here are unique across the folder's files (the test binary may be a
// unity build). Thread-safety: test code; the clock may be read by any
// thread (the store's sweeper).
#pragma once

#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "rockpoint/status.h"
#include "rockpoint/store.h"
#include "rockpoint/value.h"
#include "temp_dir.h"

namespace rockpoint::serde {
inline std::ostream& operator<<(std::ostream& out, const Value& value) {
  return out << value.DebugString();
}
}  // namespace rockpoint::serde

namespace rockpoint {
inline std::ostream& operator<<(std::ostream& out, const Status& status) {
  return out << status.ToString();
}
}  // namespace rockpoint

// REQUIREs that `expr` (a Status) is ok, printing it otherwise.
#define STORE_REQUIRE_OK(expr)                                     \
  do {                                                             \
    const ::rockpoint::Status store_status_ = (expr);              \
    REQUIRE_MESSAGE(store_status_.ok(), store_status_.ToString()); \
  } while (0)

// CHECKs that `expr` (a Status) is InvalidArgument, printing it otherwise.
#define STORE_CHECK_INVALID(expr)                     \
  do {                                                \
    const ::rockpoint::Status store_status_ = (expr); \
    CHECK_MESSAGE(store_status_.IsInvalidArgument(),  \
                  store_status_.ToString());          \
  } while (0)

namespace rockpoint::store_testing {

using serde::Value;

// 2023-11-14T22:13:20Z: where every harness clock starts.
inline constexpr int64_t kStartUs = int64_t{1'700'000'000} * 1'000'000;
inline constexpr int64_t kSecondUs = 1'000'000;
inline constexpr int64_t kMinuteUs = 60 * kSecondUs;

enum class Backend { kMemory, kRocksDb };

// Opens one doctest subcase per backend and returns the one this run takes.
inline Backend EachBackend() {
  Backend backend = Backend::kMemory;
  SUBCASE("memory") { backend = Backend::kMemory; }
  SUBCASE("rocksdb") { backend = Backend::kRocksDb; }
  return backend;
}

// The value the test sets: the store's clock, in microseconds.
class FakeClock {
 public:
  FakeClock() : now_(std::make_shared<std::atomic<int64_t>>(kStartUs)) {}
  StoreClock AsStoreClock() const {
    return [now = now_] { return now->load(); };
  }
  int64_t now() const { return now_->load(); }
  void Set(int64_t us) { now_->store(us); }
  void Advance(int64_t us) { now_->fetch_add(us); }
  void AdvanceMinutes(double minutes) {
    Advance(static_cast<int64_t>(minutes * kMinuteUs));
  }

 private:
  std::shared_ptr<std::atomic<int64_t>> now_;
};

// A store on `backend`, opened with `options` and the harness clock (unless
// the options bring a clock of their own). RocksDB stores live in a fresh
// temporary directory removed at the end of the test.
class StoreHarness {
 public:
  explicit StoreHarness(Backend backend, StoreOpenOptions options = {})
      : backend_(backend), dir_("store") {
    if (!options.clock) options.clock = clock_.AsStoreClock();
    options_ = std::move(options);
    url_ = backend == Backend::kMemory ? std::string("memory:")
                                       : "rocksdb:" + dir_.Sub("db");
    Result<std::unique_ptr<Store>> opened = OpenStore(url_, options_);
    REQUIRE_MESSAGE(opened.ok(), url_ << ": " << opened.status().ToString());
    store_ = std::move(opened).value();
  }

  Store& store() { return *store_; }
  FakeClock& clock() { return clock_; }
  Backend backend() const { return backend_; }
  bool persistent() const { return backend_ == Backend::kRocksDb; }
  const std::string& url() const { return url_; }
  const testing::TempDir& dir() const { return dir_; }
  const StoreOpenOptions& options() const { return options_; }

  // Closes the store (unless dropped) and opens its directory again with
  // `options` (the harness clock when they have none). REQUIRES:
  // persistent().
  void Reopen(std::optional<StoreOpenOptions> options = std::nullopt) {
    REQUIRE(persistent());
    Drop();
    if (options) {
      if (!options->clock) options->clock = clock_.AsStoreClock();
      options_ = std::move(*options);
    }
    Result<std::unique_ptr<Store>> opened = OpenStore(url_, options_);
    REQUIRE_MESSAGE(opened.ok(), url_ << ": " << opened.status().ToString());
    store_ = std::move(opened).value();
  }

  // Closes and forgets the store (persistent stores keep their directory).
  void Drop() {
    if (store_) STORE_REQUIRE_OK(store_->Close());
    store_.reset();
  }

 private:
  Backend backend_;
  testing::TempDir dir_;
  FakeClock clock_;
  StoreOpenOptions options_;
  std::string url_;
  std::unique_ptr<Store> store_;
};

// ---- Values -------------------------------------------------------------

// A map value: Obj({{"a", 1}, {"b", "x"}}).
inline Value Obj(Value::Map map = {}) { return Value(std::move(map)); }
// An array value: Arr({1, "x"}).
inline Value Arr(Value::Array array = {}) { return Value(std::move(array)); }

// ---- Calls that must succeed ---------------------------------------------

template <typename T>
T MustOk(Result<T> result) {
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  return std::move(result).value();
}

inline PutOp MakePut(Namespace ns, std::string key, std::optional<Value> value,
                     ItemTtl ttl = ItemTtl::StoreDefault(),
                     std::vector<FieldVector> vectors = {}) {
  PutOp op;
  op.ns = std::move(ns);
  op.key = std::move(key);
  op.value = std::move(value);
  op.ttl = ttl;
  op.vectors = std::move(vectors);
  return op;
}

inline void PutItem(Store& store, Namespace ns, std::string key, Value value,
                    ItemTtl ttl = ItemTtl::StoreDefault(),
                    std::vector<FieldVector> vectors = {}) {
  STORE_REQUIRE_OK(
      store.Put(MakePut(std::move(ns), std::move(key), std::move(value), ttl,
                        std::move(vectors))));
}

inline std::optional<StoreItem> GetItem(Store& store, Namespace ns,
                                        std::string key,
                                        bool refresh_ttl = true) {
  GetOp op;
  op.ns = std::move(ns);
  op.key = std::move(key);
  op.refresh_ttl = refresh_ttl;
  return MustOk(store.Get(op));
}

// Get, REQUIRing an item.
inline StoreItem MustGetItem(Store& store, Namespace ns, std::string key,
                             bool refresh_ttl = true) {
  std::optional<StoreItem> item =
      GetItem(store, std::move(ns), std::move(key), refresh_ttl);
  REQUIRE_MESSAGE(item.has_value(), "no item");
  return std::move(*item);
}

inline SearchOp SearchUnder(Namespace prefix, size_t limit = 1000) {
  SearchOp op;
  op.ns_prefix = std::move(prefix);
  op.limit = limit;
  return op;
}

inline std::vector<StoreItem> MustSearch(Store& store, const SearchOp& op) {
  return MustOk(store.Search(op));
}

inline std::vector<Namespace> MustList(Store& store,
                                       const ListNamespacesOp& op) {
  return MustOk(store.ListNamespaces(op));
}

// ---- Renderings for comparisons that print well ----------------------------

// A label or key with every byte outside [A-Za-z0-9_-] as \xNN, so that
// renderings of distinct namespaces never collide.
inline std::string Escape(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') ||
        (u >= '0' && u <= '9') || u == '_' || u == '-') {
      out += c;
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

// "a/b" for ("a", "b").
inline std::string NsName(const Namespace& ns) {
  std::string out;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i > 0) out += '/';
    out += Escape(ns[i]);
  }
  return out;
}

// "a/b:k" for the item (("a", "b"), "k").
inline std::string ItemName(const Namespace& ns, const std::string& key) {
  return NsName(ns) + ":" + Escape(key);
}

// The items' names in order, space-separated.
inline std::string Names(const std::vector<StoreItem>& items) {
  std::string out;
  for (const StoreItem& item : items) {
    if (!out.empty()) out += ' ';
    out += ItemName(item.ns, item.key);
  }
  return out;
}

// The namespaces' names in order, space-separated.
inline std::string NsNames(const std::vector<Namespace>& namespaces) {
  std::string out;
  for (const Namespace& ns : namespaces) {
    if (!out.empty()) out += ' ';
    out += NsName(ns);
  }
  return out;
}

// Everything the store shows: each item (newest first) with its value and
// times, then every namespace; refreshes no TTL. Equal before and after a
// refused call means that call wrote nothing.
inline std::string Everything(Store& store) {
  SearchOp all = SearchUnder({}, 1'000'000);
  all.refresh_ttl = false;
  std::string out;
  for (const StoreItem& item : MustSearch(store, all)) {
    out += ItemName(item.ns, item.key) + "=" + item.value.DebugString() + "@" +
           std::to_string(item.created_at_us) + "/" +
           std::to_string(item.updated_at_us) + "\n";
  }
  ListNamespacesOp list;
  list.limit = 1'000'000;
  out += "namespaces: " + NsNames(MustList(store, list));
  return out;
}

// CHECKs that Verify finds the store's families consistent (namespace
// counts, expiry entries, vectors against items), printing what it finds.
inline void CheckSound(Store& store) {
  const StoreVerifyReport report = MustOk(store.Verify());
  std::string problems;
  for (const std::string& problem : report.problems) problems += problem + "\n";
  CHECK_MESSAGE(report.problems.empty(), problems);
}

}  // namespace rockpoint::store_testing
