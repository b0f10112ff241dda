// Python -> C++ conversions (convert.h).
#include <Python.h>

#include <cmath>
#include <string>
#include <utility>

#include "native/convert.h"
#include "native/errors.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint::py {
namespace {

[[noreturn]] void TypeError(const std::string& message) {
  throw nb::type_error(message.c_str());
}

// A borrowed item of a dict, or nullptr.
PyObject* Item(PyObject* dict, const char* key) {
  return PyDict_GetItemString(dict, key);
}

// The str form of an id: str as is, None -> nullopt, anything else (int,
// UUID) str(value).
std::optional<std::string> OptionalId(PyObject* value) {
  if (value == nullptr || value == Py_None) return std::nullopt;
  if (PyUnicode_Check(value)) return Utf8(value);
  nb::str text = nb::str(nb::handle(value));
  return Utf8(text.ptr());
}

ChannelVersion VersionFromPy(PyObject* version, const std::string& field) {
  if (PyLong_Check(version) && !PyBool_Check(version)) {
    if (std::optional<int64_t> v = Int64Of(version)) return *v;
  } else if (PyUnicode_Check(version)) {
    return Utf8(version);
  } else if (PyFloat_Check(version)) {
    double d = PyFloat_AS_DOUBLE(version);
    if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.0e18) {
      return static_cast<int64_t>(d);
    }
  }
  throw nb::value_error(
      (field + " must be an int64, an integral float or a str").c_str());
}

}  // namespace

std::string Utf8(PyObject* str) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(str, &size);
  if (data == nullptr) throw nb::python_error();
  return std::string(data, static_cast<size_t>(size));
}

Value SerdeLeaf(nb::handle object, const Serde& serde) {
  TypedValue typed = Dump(serde, object);
  std::string payload;
  payload.reserve(typed.type.size() + 1 + typed.bytes.size());
  payload.append(typed.type).push_back('\0');
  payload.append(typed.bytes);
  return Value(serde::Ext{kSerdeExtTag, std::move(payload)});
}

Value StrLeaf(nb::handle str, const Serde& serde) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(str.ptr(), &size);
  if (data != nullptr) return Value(std::string(data, size));
  PyErr_Clear();  // lone surrogates: kept exactly through the serde.
  return SerdeLeaf(str, serde);
}

std::optional<int64_t> Int64Of(PyObject* integer, int* overflow) {
  int over = 0;
  long long v = PyLong_AsLongLongAndOverflow(integer, &over);
  if (overflow != nullptr) *overflow = over;
  if (over == 0 && !(v == -1 && PyErr_Occurred())) {
    return static_cast<int64_t>(v);
  }
  PyErr_Clear();
  return std::nullopt;
}

CheckpointConfig ConfigFromPy(nb::handle config) {
  CheckpointConfig out;
  if (config.is_none()) return out;
  if (!PyDict_Check(config.ptr())) TypeError("config must be a dict");
  PyObject* configurable = Item(config.ptr(), "configurable");
  if (configurable == nullptr || configurable == Py_None) return out;
  if (!PyDict_Check(configurable)) {
    TypeError("config['configurable'] must be a dict");
  }
  out.thread_id = OptionalId(Item(configurable, "thread_id"));
  PyObject* ns = Item(configurable, "checkpoint_ns");
  if (ns != nullptr && ns != Py_None) {
    if (!PyUnicode_Check(ns)) TypeError("checkpoint_ns must be a str");
    out.checkpoint_ns = Utf8(ns);
  }
  PyObject* id = Item(configurable, "checkpoint_id");
  if (id == nullptr || id == Py_None ||
      (PyUnicode_Check(id) && PyUnicode_GET_LENGTH(id) == 0)) {
    id = Item(configurable, "thread_ts");
  }
  if (id != nullptr && id != Py_None) {
    if (!PyUnicode_Check(id)) TypeError("checkpoint_id must be a str");
    if (PyUnicode_GET_LENGTH(id) > 0) out.checkpoint_id = Utf8(id);
  }
  return out;
}

std::string IdFromPy(nb::handle id, const char* field) {
  std::optional<std::string> out = OptionalId(id.ptr());
  if (!out) TypeError(std::string(field) + " must not be None");
  return *std::move(out);
}

std::vector<std::string> IdsFromPy(nb::handle ids, const char* field) {
  if (PyUnicode_Check(ids.ptr())) {
    TypeError(std::string(field) + " must be a sequence of ids, not a str");
  }
  std::vector<std::string> out;
  for (nb::handle id : ids) out.push_back(IdFromPy(id, field));
  return out;
}

TypedValue Dump(const Serde& serde, nb::handle value) {
  nb::object typed = serde.dumps(value);
  PyObject* t = typed.ptr();
  if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2) {
    TypeError("serde.dumps_typed must return a (type, bytes) tuple");
  }
  PyObject* type = PyTuple_GET_ITEM(t, 0);
  PyObject* data = PyTuple_GET_ITEM(t, 1);
  if (!PyUnicode_Check(type)) TypeError("serde type must be a str");
  TypedValue out;
  out.type = Utf8(type);
  char* bytes = nullptr;
  Py_ssize_t size = 0;
  if (PyBytes_Check(data)) {
    PyBytes_AsStringAndSize(data, &bytes, &size);
    out.bytes.assign(bytes, static_cast<size_t>(size));
  } else if (PyByteArray_Check(data)) {
    out.bytes.assign(PyByteArray_AS_STRING(data),
                     static_cast<size_t>(PyByteArray_GET_SIZE(data)));
  } else {
    TypeError("serde.dumps_typed must return bytes");
  }
  return out;
}

ChannelVersions VersionsFromPy(nb::handle versions, const char* field) {
  ChannelVersions out;
  if (versions.is_none()) return out;
  if (!PyDict_Check(versions.ptr())) {
    TypeError(std::string(field) + " must be a dict");
  }
  PyObject* key = nullptr;
  PyObject* value = nullptr;
  Py_ssize_t pos = 0;
  while (PyDict_Next(versions.ptr(), &pos, &key, &value)) {
    if (!PyUnicode_Check(key)) {
      TypeError(std::string(field) + " keys must be str");
    }
    std::string channel = Utf8(key);
    ChannelVersion version =
        VersionFromPy(value, std::string(field) + "[" + channel + "]");
    out.emplace(std::move(channel), std::move(version));
  }
  return out;
}

Checkpoint CheckpointFromPy(nb::handle checkpoint, nb::handle new_versions,
                            const Serde& serde) {
  PyObject* cp = checkpoint.ptr();
  if (!PyDict_Check(cp)) TypeError("checkpoint must be a dict");
  Checkpoint out;
  PyObject* v = Item(cp, "v");
  if (v != nullptr && v != Py_None) {
    if (!PyLong_Check(v)) TypeError("checkpoint['v'] must be an int");
    out.v = PyLong_AsLongLong(v);
    if (out.v == -1 && PyErr_Occurred()) throw nb::python_error();
  }
  PyObject* id = Item(cp, "id");
  if (id == nullptr || !PyUnicode_Check(id)) {
    TypeError("checkpoint['id'] must be a str");
  }
  out.id = Utf8(id);
  PyObject* ts = Item(cp, "ts");
  if (ts != nullptr && ts != Py_None) {
    if (!PyUnicode_Check(ts)) TypeError("checkpoint['ts'] must be a str");
    out.ts = Utf8(ts);
  }
  out.channel_versions =
      VersionsFromPy(nb::handle(Item(cp, "channel_versions")),
                     "checkpoint['channel_versions']");
  PyObject* seen = Item(cp, "versions_seen");
  if (seen != nullptr && seen != Py_None) {
    if (!PyDict_Check(seen)) {
      TypeError("checkpoint['versions_seen'] must be a dict");
    }
    PyObject* key = nullptr;
    PyObject* value = nullptr;
    Py_ssize_t pos = 0;
    while (PyDict_Next(seen, &pos, &key, &value)) {
      if (!PyUnicode_Check(key)) {
        TypeError("checkpoint['versions_seen'] keys must be str");
      }
      out.versions_seen.emplace(
          Utf8(key), VersionsFromPy(value, "checkpoint['versions_seen']"));
    }
  }
  PyObject* updated = Item(cp, "updated_channels");
  if (updated != nullptr && updated != Py_None) {
    std::vector<std::string> channels;
    for (nb::handle channel : nb::handle(updated)) {
      if (!PyUnicode_Check(channel.ptr())) {
        TypeError("checkpoint['updated_channels'] items must be str");
      }
      channels.push_back(Utf8(channel.ptr()));
    }
    out.updated_channels = std::move(channels);
  }
  PyObject* sends = Item(cp, "pending_sends");
  if (sends != nullptr && sends != Py_None) {
    std::vector<TypedValue> typed;
    for (nb::handle send : nb::handle(sends))
      typed.push_back(Dump(serde, send));
    out.pending_sends = std::move(typed);
  }
  PyObject* values = Item(cp, "channel_values");
  if (values != nullptr && values != Py_None && !PyDict_Check(values)) {
    TypeError("checkpoint['channel_values'] must be a dict");
  }
  if (values != nullptr && values != Py_None && !new_versions.is_none()) {
    if (!PyDict_Check(new_versions.ptr())) {
      TypeError("new_versions must be a dict");
    }
    PyObject* key = nullptr;
    PyObject* ignored = nullptr;
    Py_ssize_t pos = 0;
    while (PyDict_Next(new_versions.ptr(), &pos, &key, &ignored)) {
      PyObject* value = PyDict_GetItemWithError(values, key);
      if (value == nullptr) {
        if (PyErr_Occurred()) throw nb::python_error();
        continue;
      }
      if (!PyUnicode_Check(key)) TypeError("new_versions keys must be str");
      out.channel_values.emplace(Utf8(key), Dump(serde, value));
    }
  }
  return out;
}

std::vector<ChannelWrite> WritesFromPy(nb::handle writes, const Serde& serde) {
  std::vector<ChannelWrite> out;
  for (nb::handle write : writes) {
    PyObject* w = write.ptr();
    PyObject* channel = nullptr;
    PyObject* value = nullptr;
    if (PyTuple_Check(w) && PyTuple_GET_SIZE(w) == 2) {
      channel = PyTuple_GET_ITEM(w, 0);
      value = PyTuple_GET_ITEM(w, 1);
    } else if (PyList_Check(w) && PyList_GET_SIZE(w) == 2) {
      channel = PyList_GET_ITEM(w, 0);
      value = PyList_GET_ITEM(w, 1);
    } else {
      TypeError("each write must be a (channel, value) pair");
    }
    if (!PyUnicode_Check(channel)) TypeError("write channel must be a str");
    out.push_back(ChannelWrite{Utf8(channel), Dump(serde, value)});
  }
  return out;
}

namespace {

// A dict, list or tuple at level `depth` + 1 deeper than the engine keeps
// metadata (a cycle, too) is InvalidArgumentError, with the message Put
// gives for such metadata built in C++.
void CheckDepth(int depth, const char* what) {
  if (depth < kMaxMetadataNesting) return;
  ThrowIfError(Status::InvalidArgument(
      std::string(what) + " nests deeper than " +
      std::to_string(kMaxMetadataNesting) + " maps and arrays"));
}

// ValueFromPy of `object`, which `depth` dicts, lists and tuples enclose.
Value ValueAt(nb::handle object, const Serde& serde, bool* lossy,
              const char* what, int depth) {
  PyObject* o = object.ptr();
  if (o == Py_None) return Value();
  if (PyBool_Check(o)) {
    *lossy = true;
    return Value(static_cast<int64_t>(o == Py_True ? 1 : 0));
  }
  if (PyUnicode_Check(o)) return StrLeaf(object, serde);
  if (PyLong_Check(o)) {
    if (std::optional<int64_t> v = Int64Of(o)) return Value(*v);
    return SerdeLeaf(object, serde);
  }
  if (PyFloat_Check(o)) {
    double d = PyFloat_AS_DOUBLE(o);
    if (std::isfinite(d) && std::floor(d) == d && d >= -9.2e18 && d <= 9.2e18) {
      *lossy = true;
      return Value(static_cast<int64_t>(d));
    }
    return Value(d);
  }
  if (PyDict_Check(o)) {
    CheckDepth(depth, what);
    Value::Map map;
    PyObject* key = nullptr;
    PyObject* value = nullptr;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &key, &value)) {
      if (!PyUnicode_CheckExact(key)) return SerdeLeaf(object, serde);
      map.insert_or_assign(Utf8(key),
                           ValueAt(value, serde, lossy, what, depth + 1));
    }
    return Value(std::move(map));
  }
  if (PyList_Check(o) || PyTuple_Check(o)) {
    CheckDepth(depth, what);
    Value::Array array;
    PyObject* seq = o;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    array.reserve(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
      array.push_back(ValueAt(PySequence_Fast_GET_ITEM(seq, i), serde, lossy,
                              what, depth + 1));
    }
    return Value(std::move(array));
  }
  if (PyBytes_Check(o)) {
    return Value(
        serde::Bytes{std::string(PyBytes_AS_STRING(o), PyBytes_GET_SIZE(o))});
  }
  return SerdeLeaf(object, serde);
}

}  // namespace

Value ValueFromPy(nb::handle object, const Serde& serde, bool* lossy,
                  const char* what) {
  return ValueAt(object, serde, lossy, what, 0);
}

Value MetadataFromPy(nb::handle metadata, const Serde& serde) {
  if (metadata.is_none()) return Value::MakeMap();
  if (!PyDict_Check(metadata.ptr())) TypeError("metadata must be a dict");
  bool lossy = false;
  Value out = ValueFromPy(metadata, serde, &lossy, "metadata");
  if (!out.is_map()) TypeError("metadata keys must be str");
  if (lossy) {
    Value exact = SerdeLeaf(metadata, serde);
    out.as_map().insert_or_assign(std::string(kExactMetadataKey),
                                  std::move(exact));
  }
  return out;
}

}  // namespace rockpoint::py
