// langgraph.checkpoint.rockpoint._native: the engine for RockpointSaver
// (saver.py). Not a public API.
#include <Python.h>
#include <nanobind/nanobind.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <optional>
#include <string>
#include <string_view>

#include "native/async_calls.h"
#include "native/convert.h"
#include "native/errors.h"
#include "native/item_store.h"
#include "native/store.h"
#include "rockpoint/encryption.h"

namespace nb = nanobind;
using rockpoint::py::Completions;
using rockpoint::py::Cursor;
using rockpoint::py::OpenOptions;
using rockpoint::py::Outcome;
using rockpoint::py::Store;

namespace {
// An argument that may be None (the Store methods check it themselves).
auto A(const char* name) { return nb::arg(name).none(); }

// A retention argument: None, or Retention._native()'s tuple.
std::optional<rockpoint::RetentionPolicy> OptionalPolicy(nb::handle spec) {
  if (spec.is_none()) return std::nullopt;
  return rockpoint::py::PolicyFromPy(spec);
}

// An encryption key argument: None, bytes or bytearray (the 32 key bytes),
// or str (64 hex digits, surrounding whitespace ignored). saver.py checks
// types and sizes first, with Python's messages; these checks keep the
// module safe on its own.
std::optional<std::string> KeyFromPy(nb::handle key) {
  if (key.is_none()) return std::nullopt;
  if (PyBytes_Check(key.ptr())) {
    return std::string(PyBytes_AS_STRING(key.ptr()),
                       static_cast<size_t>(PyBytes_GET_SIZE(key.ptr())));
  }
  if (PyByteArray_Check(key.ptr())) {
    return std::string(PyByteArray_AS_STRING(key.ptr()),
                       static_cast<size_t>(PyByteArray_GET_SIZE(key.ptr())));
  }
  if (PyUnicode_Check(key.ptr())) {
    Py_ssize_t size = 0;
    const char* text = PyUnicode_AsUTF8AndSize(key.ptr(), &size);
    if (text == nullptr) throw nb::python_error();
    rockpoint::Result<std::string> parsed = rockpoint::ParseEncryptionKey(
        std::string_view(text, static_cast<size_t>(size)));
    rockpoint::py::ThrowIfError(parsed.status());
    return std::move(parsed).value();
  }
  throw nb::type_error(
      "encryption_key must be bytes (32) or str (64 hex digits) or None");
}
}  // namespace

NB_MODULE(_native, m) {
  rockpoint::py::RegisterErrors();
  rockpoint::py::RegisterItemStore(m);  // RockpointStore's engine

  m.def("validate_retention", &rockpoint::py::ValidatePolicy, nb::arg("spec"));

  nb::class_<Cursor>(m, "Cursor")
      .def("next", &Cursor::Next, nb::arg("n"), nb::arg("serde"))
      .def("close", &Cursor::Close);

  nb::class_<Outcome>(m, "Outcome")
      .def("result", &Outcome::Result, A("serde") = nb::none());

  nb::class_<Completions>(m, "Completions")
      .def(nb::init<>())
      .def_prop_ro("fd", &Completions::fd)
      .def("drain", &Completions::Drain);

  nb::class_<Store>(m, "Store")
      .def_static(
          "open_rocksdb",
          [](const std::string& path, bool sync_writes, bool create_if_missing,
             bool read_only, uint64_t blob_file_min_bytes,
             uint64_t block_cache_bytes, nb::handle retention,
             nb::handle encryption_key) {
            OpenOptions options;
            options.path = path;
            options.sync_writes = sync_writes;
            options.create_if_missing = create_if_missing;
            options.read_only = read_only;
            options.blob_file_min_bytes = blob_file_min_bytes;
            options.block_cache_bytes = block_cache_bytes;
            options.retention = OptionalPolicy(retention);
            options.encryption_key = KeyFromPy(encryption_key);
            return Store::OpenRocksDb(options);
          },
          nb::arg("path"), nb::arg("sync_writes"), nb::arg("create_if_missing"),
          nb::arg("read_only"), nb::arg("blob_file_min_bytes"),
          nb::arg("block_cache_bytes"), A("retention") = nb::none(),
          A("encryption_key") = nb::none())
      .def_static(
          "open_memory",
          [](nb::handle retention) {
            return Store::OpenMemory(OptionalPolicy(retention));
          },
          A("retention") = nb::none())
      .def("put", &Store::Put, A("config"), A("checkpoint"), A("metadata"),
           A("new_versions"), A("serde"))
      .def("put_writes", &Store::PutWrites, A("config"), A("writes"),
           A("task_id"), A("task_path"), A("serde"))
      .def("get_tuple", &Store::GetTuple, A("config"), A("serde"))
      .def("put_async", &Store::PutAsync, nb::arg("done"), nb::arg("ticket"),
           A("config"), A("checkpoint"), A("metadata"), A("new_versions"),
           A("serde"))
      .def("put_writes_async", &Store::PutWritesAsync, nb::arg("done"),
           nb::arg("ticket"), A("config"), A("writes"), A("task_id"),
           A("task_path"), A("serde"))
      .def("get_tuple_async", &Store::GetTupleAsync, nb::arg("done"),
           nb::arg("ticket"), A("config"))
      .def("list", &Store::List, A("config"), A("filter"), A("before"),
           A("limit"), nb::arg("first_batch"), A("serde"))
      .def("delta_history", &Store::DeltaHistory, A("config"), A("channels"),
           A("serde"))
      .def("delete_thread", &Store::DeleteThread, A("thread_id"))
      .def("delete_for_runs", &Store::DeleteForRuns, A("run_ids"))
      .def("copy_thread", &Store::CopyThread, A("source"), A("target"))
      .def("prune", &Store::Prune)
      .def("sweep", &Store::Sweep, nb::arg("retention"), nb::arg("now_micros"),
           nb::arg("dry_run"))
      .def("close", &Store::Close)
      .def_prop_ro("closed", &Store::closed)
      .def_prop_ro("kind", &Store::kind)
      .def_prop_ro("writes_inline", &Store::writes_inline);
}
