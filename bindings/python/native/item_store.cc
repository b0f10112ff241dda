#include "native/item_store.h"

#include <Python.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <mutex>
#include <utility>

#include "native/errors.h"

namespace rockpoint::py {

ItemStore::ItemStore(std::unique_ptr<Store> store, std::string name,
                     std::optional<size_t> dims)
    : store_(std::move(store)), name_(std::move(name)), dims_(dims) {}

ItemStore::~ItemStore() {
  // No Python thread can be in a call (each holds a reference); the
  // engine's sweeper stops here.
  std::unique_lock lock(mu_);
  store_.reset();
}

std::shared_ptr<ItemStore> ItemStore::Open(const ItemStoreOptions& options) {
  StoreOpenOptions open;
  open.create_if_missing = options.create_if_missing;
  open.read_only = options.read_only;
  open.sync_writes = options.sync_writes;
  open.ttl.default_ttl_minutes = options.default_ttl_minutes;
  open.ttl.refresh_on_read = options.refresh_on_read;
  open.ttl.sweep_interval_minutes = options.sweep_interval_minutes;
  open.ttl.sweep_batch_size = options.sweep_batch_size;
  if (options.dims) {
    StoreIndexOptions index;
    index.dims = *options.dims;
    if (options.exact_search_max_vectors) {
      index.exact_search_max_vectors = *options.exact_search_max_vectors;
    }
    if (options.hnsw_links) index.hnsw_links = *options.hnsw_links;
    if (options.hnsw_build_candidates) {
      index.hnsw_build_candidates = *options.hnsw_build_candidates;
    }
    if (options.hnsw_search_candidates) {
      index.hnsw_search_candidates = *options.hnsw_search_candidates;
    }
    open.index = index;
  }
  Result<std::unique_ptr<Store>> opened = [&] {
    nb::gil_scoped_release release;
    return OpenStore(options.url, open);
  }();
  ThrowIfError(opened.status());
  std::unique_ptr<Store> store = std::move(opened).value();
  std::string name = store->name();
  std::optional<size_t> dims = store->dims();
  return std::shared_ptr<ItemStore>(
      new ItemStore(std::move(store), std::move(name), dims));
}

nb::list ItemStore::Batch(nb::handle ops, nb::handle serde) {
  Serde s(serde);
  std::vector<StoreOp> store_ops = StoreOpsFromPy(ops, s);
  Result<std::vector<StoreOpResult>> out = [&] {
    nb::gil_scoped_release release;
    std::shared_lock lock(mu_);
    if (!store_) {
      return Result<std::vector<StoreOpResult>>(
          Status::Aborted("store is closed"));
    }
    return store_->Batch(store_ops);
  }();
  ThrowIfError(out.status());
  return StoreResultsToPy(*out, s);
}

uint64_t ItemStore::Sweep() {
  Result<uint64_t> out = [&] {
    nb::gil_scoped_release release;
    std::shared_lock lock(mu_);
    if (!store_) return Result<uint64_t>(Status::Aborted("store is closed"));
    return store_->SweepExpired();
  }();
  ThrowIfError(out.status());
  return *out;
}

nb::object ItemStore::IndexStats() {
  Result<std::optional<StoreIndexStats>> out = [&] {
    nb::gil_scoped_release release;
    std::shared_lock lock(mu_);
    if (!store_) {
      return Result<std::optional<StoreIndexStats>>(
          Status::Aborted("store is closed"));
    }
    return store_->IndexStats();
  }();
  ThrowIfError(out.status());
  if (!out->has_value()) return nb::none();
  nb::dict stats;
  stats["vectors"] = nb::steal(PyLong_FromUnsignedLongLong((*out)->vectors));
  stats["approximate_ready"] = nb::bool_((*out)->approximate_ready);
  return stats;
}

void ItemStore::Close() {
  Status status = [&] {
    nb::gil_scoped_release release;
    std::unique_lock lock(mu_);  // waits for the calls in flight
    if (!store_) return Status::OK();
    Status closed = store_->Close();
    store_.reset();
    return closed;
  }();
  ThrowIfError(status);
}

bool ItemStore::closed() {
  std::shared_lock lock(mu_);
  return store_ == nullptr;
}

namespace {

// A number of minutes argument: None, or a finite number (the engine
// checks its range).
std::optional<double> MinutesFromPy(nb::handle minutes, const char* what) {
  if (minutes.is_none()) return std::nullopt;
  PyObject* o = minutes.ptr();
  if (PyBool_Check(o) || !(PyFloat_Check(o) || PyLong_Check(o))) {
    throw nb::type_error(
        (std::string(what) + " must be a number of minutes or None").c_str());
  }
  double d = PyFloat_AsDouble(o);
  if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return d;
}

}  // namespace

void RegisterItemStore(nb::module_& m) {
  nb::class_<ItemStore>(m, "ItemStore")
      .def_static(
          "open",
          [](const std::string& url, bool sync_writes, bool read_only,
             bool create_if_missing, std::optional<size_t> dims,
             std::optional<size_t> exact_search_max_vectors,
             std::optional<size_t> hnsw_links,
             std::optional<size_t> hnsw_build_candidates,
             std::optional<size_t> hnsw_search_candidates,
             nb::handle default_ttl_minutes, bool refresh_on_read,
             nb::handle sweep_interval_minutes, size_t sweep_batch_size) {
            ItemStoreOptions options;
            options.url = url;
            options.sync_writes = sync_writes;
            options.read_only = read_only;
            options.create_if_missing = create_if_missing;
            options.dims = dims;
            options.exact_search_max_vectors = exact_search_max_vectors;
            options.hnsw_links = hnsw_links;
            options.hnsw_build_candidates = hnsw_build_candidates;
            options.hnsw_search_candidates = hnsw_search_candidates;
            options.default_ttl_minutes =
                MinutesFromPy(default_ttl_minutes, "default_ttl_minutes");
            options.refresh_on_read = refresh_on_read;
            options.sweep_interval_minutes =
                MinutesFromPy(sweep_interval_minutes, "sweep_interval_minutes");
            options.sweep_batch_size = sweep_batch_size;
            return ItemStore::Open(options);
          },
          nb::arg("url"), nb::kw_only(), nb::arg("sync_writes") = true,
          nb::arg("read_only") = false, nb::arg("create_if_missing") = true,
          nb::arg("dims").none() = nb::none(),
          nb::arg("exact_search_max_vectors").none() = nb::none(),
          nb::arg("hnsw_links").none() = nb::none(),
          nb::arg("hnsw_build_candidates").none() = nb::none(),
          nb::arg("hnsw_search_candidates").none() = nb::none(),
          nb::arg("default_ttl_minutes").none() = nb::none(),
          nb::arg("refresh_on_read") = true,
          nb::arg("sweep_interval_minutes").none() = nb::none(),
          nb::arg("sweep_batch_size") = 1000)
      .def("batch", &ItemStore::Batch, nb::arg("ops"), nb::arg("serde"))
      .def("sweep", &ItemStore::Sweep)
      .def("index_stats", &ItemStore::IndexStats)
      .def("close", &ItemStore::Close)
      .def_prop_ro("closed", &ItemStore::closed)
      .def_prop_ro("dims", &ItemStore::dims)
      .def_prop_ro("name", &ItemStore::name);
}

}  // namespace rockpoint::py
