// Python <-> C++ conversions of ItemStore (item_store.h).
#include <Python.h>

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "native/errors.h"
#include "native/item_store.h"

namespace rockpoint::py {
namespace {

[[noreturn]] void TypeError(const std::string& message) {
  throw nb::type_error(message.c_str());
}

[[noreturn]] void ValueError(const std::string& message) {
  throw nb::value_error(message.c_str());
}

const char* TypeName(PyObject* o) { return Py_TYPE(o)->tp_name; }

// The deepest item value or filter: an item record wraps the value in one
// more array (engine/store/store_layout.h), as a checkpoint record wraps
// metadata.
constexpr int kMaxItemNesting = serde::kMaxDepth - 1;

enum class Mode { kValue, kFilter };

// `object` as a Value, exactly (bool stays bool, 1.0 stays a float), for a
// container `depth` levels down. A dict, list or tuple below the deepest
// level (a cycle, too) is InvalidArgumentError.
Value ExactValue(nb::handle object, const Serde& serde, Mode mode,
                 const char* what, int depth) {
  PyObject* o = object.ptr();
  if (o == Py_None) return Value();
  if (PyBool_Check(o)) return Value(o == Py_True);
  if (PyUnicode_Check(o)) return StrLeaf(object, serde);
  if (PyLong_Check(o)) {
    int overflow = 0;
    if (std::optional<int64_t> v = Int64Of(o, &overflow)) return Value(*v);
    if (mode == Mode::kFilter) {
      double d = PyLong_AsDouble(o);  // +-inf past a double's range
      if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        d = overflow > 0 ? HUGE_VAL : -HUGE_VAL;
      }
      return Value(d);
    }
    return SerdeLeaf(object, serde);
  }
  if (PyFloat_Check(o)) return Value(PyFloat_AS_DOUBLE(o));
  const bool is_dict = PyDict_Check(o);
  if (is_dict || PyList_Check(o) || PyTuple_Check(o)) {
    if (depth >= kMaxItemNesting) {
      ThrowIfError(Status::InvalidArgument(
          std::string(what) + " nests deeper than " +
          std::to_string(kMaxItemNesting) + " maps and arrays"));
    }
  }
  if (is_dict) {
    Value::Map map;
    PyObject* key = nullptr;
    PyObject* value = nullptr;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &key, &value)) {
      if (!PyUnicode_Check(key)) return SerdeLeaf(object, serde);
      map.insert_or_assign(Utf8(key),
                           ExactValue(value, serde, mode, what, depth + 1));
    }
    return Value(std::move(map));
  }
  if (PyList_Check(o) || PyTuple_Check(o)) {
    Value::Array array;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    array.reserve(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
      array.push_back(ExactValue(PySequence_Fast_GET_ITEM(o, i), serde, mode,
                                 what, depth + 1));
    }
    return Value(std::move(array));
  }
  if (PyBytes_Check(o)) {
    return Value(
        serde::Bytes{std::string(PyBytes_AS_STRING(o), PyBytes_GET_SIZE(o))});
  }
  if (PyByteArray_Check(o)) {
    return Value(serde::Bytes{
        std::string(PyByteArray_AS_STRING(o),
                    static_cast<size_t>(PyByteArray_GET_SIZE(o)))});
  }
  return SerdeLeaf(object, serde);
}

// A top-level dict with str keys as a map.
Value::Map MapFromPy(nb::handle object, const Serde& serde, Mode mode,
                     const char* what) {
  PyObject* o = object.ptr();
  if (!PyDict_Check(o)) {
    TypeError(std::string(what) + " must be a dict, not " + TypeName(o));
  }
  PyObject* key = nullptr;
  PyObject* value = nullptr;
  Py_ssize_t pos = 0;
  while (PyDict_Next(o, &pos, &key, &value)) {
    if (!PyUnicode_Check(key)) {
      TypeError(std::string(what) + " keys must be str, not " + TypeName(key));
    }
  }
  Value out = ExactValue(object, serde, mode, what, 0);
  return std::move(out.as_map());
}

// A tuple or list as a tuple (a list is copied, so Python code that runs
// while its items are converted cannot change what is read), or TypeError.
nb::tuple Items(nb::handle seq, const char* what) {
  PyObject* o = seq.ptr();
  if (PyTuple_Check(o)) return nb::borrow<nb::tuple>(seq);
  if (!PyList_Check(o)) {
    TypeError(std::string(what) + " must be a tuple or list, not " +
              TypeName(o));
  }
  PyObject* copy = PyList_AsTuple(o);
  if (copy == nullptr) throw nb::python_error();
  return nb::steal<nb::tuple>(copy);
}

Namespace NamespaceFromPy(nb::handle ns, const char* what) {
  nb::tuple items = Items(ns, what);
  Namespace out;
  out.reserve(items.size());
  for (nb::handle label : items) {
    if (!PyUnicode_Check(label.ptr())) {
      TypeError(std::string(what) + " labels must be str, not " +
                TypeName(label.ptr()));
    }
    out.push_back(Utf8(label.ptr()));
  }
  return out;
}

std::string KeyFromPy(nb::handle key) {
  if (!PyUnicode_Check(key.ptr())) {
    TypeError(std::string("key must be a str, not ") + TypeName(key.ptr()));
  }
  return Utf8(key.ptr());
}

bool BoolFromPy(nb::handle b) {
  int truth = PyObject_IsTrue(b.ptr());
  if (truth < 0) throw nb::python_error();
  return truth != 0;
}

size_t CountFromPy(nb::handle n, const char* what) {
  PyObject* o = n.ptr();
  if (!PyLong_Check(o) || PyBool_Check(o)) {
    TypeError(std::string(what) + " must be an int, not " + TypeName(o));
  }
  long long v = PyLong_AsLongLong(o);
  if (v == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    ValueError(std::string(what) + " is out of range");
  }
  if (v < 0)
    ValueError(std::string(what) + " must be >= 0, got " + std::to_string(v));
  return static_cast<size_t>(v);
}

std::vector<float> VectorFromPy(nb::handle vector, const char* what) {
  nb::object fast = nb::steal(
      PySequence_Fast(vector.ptr(), "a vector must be a sequence of floats"));
  if (!fast.is_valid()) throw nb::python_error();
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast.ptr());
  std::vector<float> out;
  out.reserve(static_cast<size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* x = PySequence_Fast_GET_ITEM(fast.ptr(), i);
    double d = PyFloat_AsDouble(x);
    if (d == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      TypeError(std::string(what) + " must hold numbers, not " + TypeName(x));
    }
    if (!std::isfinite(d)) {
      ValueError(std::string(what) + " must hold finite numbers, got " +
                 std::to_string(d));
    }
    out.push_back(static_cast<float>(d));
  }
  return out;
}

// The op tuple's fields, checked for their count.
PyObject* const* OpFields(nb::handle op, Py_ssize_t want, const char* kind) {
  PyObject* o = op.ptr();
  if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != want) {
    TypeError(std::string("a ") + kind + " op must be a tuple of " +
              std::to_string(want) + " items");
  }
  return PySequence_Fast_ITEMS(o);
}

ItemTtl TtlFromPy(PyObject* ttl) {
  if (ttl == Py_None) return ItemTtl::Never();
  if (PyUnicode_Check(ttl)) {
    if (Utf8(ttl) == "default") return ItemTtl::StoreDefault();
    ValueError("ttl must be \"default\", None or minutes");
  }
  if (PyBool_Check(ttl) || !(PyFloat_Check(ttl) || PyLong_Check(ttl))) {
    TypeError(std::string("ttl must be minutes (a number) or None, not ") +
              TypeName(ttl));
  }
  double minutes = PyFloat_AsDouble(ttl);
  if (minutes == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return ItemTtl::Minutes(minutes);
}

StoreOp GetFromPy(nb::handle op) {
  PyObject* const* f = OpFields(op, 4, "get");
  GetOp get;
  get.ns = NamespaceFromPy(f[1], "namespace");
  get.key = KeyFromPy(f[2]);
  get.refresh_ttl = BoolFromPy(f[3]);
  return get;
}

StoreOp PutFromPy(nb::handle op, const Serde& serde) {
  PyObject* const* f = OpFields(op, 6, "put");
  PutOp put;
  put.ns = NamespaceFromPy(f[1], "namespace");
  put.key = KeyFromPy(f[2]);
  if (f[3] != Py_None) {
    put.value = Value(MapFromPy(f[3], serde, Mode::kValue, "value"));
  }
  if (f[4] != Py_None) {
    for (nb::handle item : Items(f[4], "vectors")) {
      PyObject* pair = item.ptr();
      if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 ||
          !PyUnicode_Check(PyTuple_GET_ITEM(pair, 0))) {
        TypeError("each vector must be a (field: str, floats) tuple");
      }
      std::string field = Utf8(PyTuple_GET_ITEM(pair, 0));
      std::string what = "the vector of field \"" + field + "\"";
      std::vector<float> vector =
          VectorFromPy(PyTuple_GET_ITEM(pair, 1), what.c_str());
      put.vectors.push_back(FieldVector{std::move(field), std::move(vector)});
    }
  }
  put.ttl = TtlFromPy(f[5]);
  return put;
}

StoreOp SearchFromPy(nb::handle op, const Serde& serde) {
  PyObject* const* f = OpFields(op, 7, "search");
  SearchOp search;
  search.ns_prefix = NamespaceFromPy(f[1], "namespace_prefix");
  if (f[2] != Py_None) {
    search.filter = MapFromPy(f[2], serde, Mode::kFilter, "filter");
  }
  if (f[3] != Py_None) search.query = VectorFromPy(f[3], "the query vector");
  search.limit = CountFromPy(f[4], "limit");
  search.offset = CountFromPy(f[5], "offset");
  search.refresh_ttl = BoolFromPy(f[6]);
  return search;
}

StoreOp ListFromPy(nb::handle op) {
  PyObject* const* f = OpFields(op, 5, "list");
  ListNamespacesOp list;
  if (f[1] != Py_None) {
    for (nb::handle item : Items(f[1], "match_conditions")) {
      PyObject* c = item.ptr();
      if (!PyTuple_Check(c) || PyTuple_GET_SIZE(c) != 2 ||
          !PyUnicode_Check(PyTuple_GET_ITEM(c, 0))) {
        TypeError("each match condition must be a (match_type, path) tuple");
      }
      std::string type = Utf8(PyTuple_GET_ITEM(c, 0));
      NamespaceCondition condition;
      if (type == "prefix") {
        condition.match = NamespaceMatch::kPrefix;
      } else if (type == "suffix") {
        condition.match = NamespaceMatch::kSuffix;
      } else {
        ValueError("match_type must be \"prefix\" or \"suffix\", got \"" +
                   type + "\"");
      }
      condition.path = NamespaceFromPy(PyTuple_GET_ITEM(c, 1), "path");
      list.conditions.push_back(std::move(condition));
    }
  }
  if (f[2] != Py_None) list.max_depth = CountFromPy(f[2], "max_depth");
  list.limit = CountFromPy(f[3], "limit");
  list.offset = CountFromPy(f[4], "offset");
  return list;
}

nb::str Str(const std::string& s) { return nb::str(s.data(), s.size()); }

nb::tuple NamespaceToPy(const Namespace& ns) {
  nb::object out = nb::steal(PyTuple_New(static_cast<Py_ssize_t>(ns.size())));
  if (!out.is_valid()) throw nb::python_error();
  for (size_t i = 0; i < ns.size(); ++i) {
    PyTuple_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i),
                     Str(ns[i]).release().ptr());
  }
  return nb::borrow<nb::tuple>(out);
}

nb::object Micros(int64_t us) { return nb::steal(PyLong_FromLongLong(us)); }

nb::object OptionalMicros(const std::optional<int64_t>& us) {
  return us ? Micros(*us) : nb::none();
}

nb::tuple ItemToPy(const StoreItem& item, const Serde& serde) {
  return nb::make_tuple(NamespaceToPy(item.ns), Str(item.key),
                        ValueToPy(item.value, serde),
                        Micros(item.created_at_us), Micros(item.updated_at_us),
                        OptionalMicros(item.expires_at_us));
}

nb::tuple SearchItemToPy(const StoreItem& item, const Serde& serde) {
  return nb::make_tuple(
      NamespaceToPy(item.ns), Str(item.key), ValueToPy(item.value, serde),
      Micros(item.created_at_us), Micros(item.updated_at_us),
      OptionalMicros(item.expires_at_us),
      item.score ? nb::object(nb::float_(*item.score)) : nb::none());
}

}  // namespace

std::vector<StoreOp> StoreOpsFromPy(nb::handle ops, const Serde& serde) {
  nb::tuple items = Items(ops, "ops");
  std::vector<StoreOp> out;
  out.reserve(items.size());
  for (nb::handle op : items) {
    if (!PyTuple_Check(op.ptr()) || PyTuple_GET_SIZE(op.ptr()) == 0 ||
        !PyUnicode_Check(PyTuple_GET_ITEM(op.ptr(), 0))) {
      TypeError("each op must be a tuple starting with its kind");
    }
    std::string kind = Utf8(PyTuple_GET_ITEM(op.ptr(), 0));
    if (kind == "get") {
      out.push_back(GetFromPy(op));
    } else if (kind == "put") {
      out.push_back(PutFromPy(op, serde));
    } else if (kind == "search") {
      out.push_back(SearchFromPy(op, serde));
    } else if (kind == "list") {
      out.push_back(ListFromPy(op));
    } else {
      ValueError("unknown op kind \"" + kind + "\"");
    }
  }
  return out;
}

nb::list StoreResultsToPy(const std::vector<StoreOpResult>& results,
                          const Serde& serde) {
  nb::list out;
  for (const StoreOpResult& result : results) {
    if (const auto* item = std::get_if<std::optional<StoreItem>>(&result)) {
      out.append(item->has_value() ? nb::object(ItemToPy(**item, serde))
                                   : nb::none());
    } else if (const auto* items =
                   std::get_if<std::vector<StoreItem>>(&result)) {
      nb::list found;
      for (const StoreItem& i : *items) found.append(SearchItemToPy(i, serde));
      out.append(found);
    } else if (const auto* namespaces =
                   std::get_if<std::vector<Namespace>>(&result)) {
      nb::list found;
      for (const Namespace& ns : *namespaces) found.append(NamespaceToPy(ns));
      out.append(found);
    } else {
      out.append(nb::none());
    }
  }
  return out;
}

}  // namespace rockpoint::py
