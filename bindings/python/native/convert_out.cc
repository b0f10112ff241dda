// C++ -> Python conversions (convert.h).
#include <Python.h>

#include <string>

#include "native/convert.h"

namespace rockpoint::py {
namespace {

nb::str Str(const std::string& s) { return nb::str(s.data(), s.size()); }

nb::object VersionToPy(const ChannelVersion& version) {
  if (const auto* i = std::get_if<int64_t>(&version)) {
    return nb::steal(PyLong_FromLongLong(*i));
  }
  return Str(std::get<std::string>(version));
}

nb::dict VersionsToPy(const ChannelVersions& versions) {
  nb::dict out;
  for (const auto& [channel, version] : versions) {
    out[Str(channel)] = VersionToPy(version);
  }
  return out;
}

// LangGraph's CheckpointTuple class, imported once and kept for the life of
// the process.
nb::handle TupleClass() {
  static PyObject* cls = [] {
    nb::object base = nb::module_::import_("langgraph.checkpoint.base");
    nb::object cls = base.attr("CheckpointTuple");
    return cls.release().ptr();
  }();
  return cls;
}

nb::object LoadExt(const serde::Ext& ext, const Serde& serde) {
  size_t zero = ext.data.find('\0');
  if (ext.type != kSerdeExtTag || zero == std::string::npos) {
    return nb::bytes(ext.data.data(), ext.data.size());
  }
  nb::object typed = nb::make_tuple(
      nb::str(ext.data.data(), zero),
      nb::bytes(ext.data.data() + zero + 1, ext.data.size() - zero - 1));
  return serde.loads(typed);
}

}  // namespace

nb::object Load(const Serde& serde, const TypedValue& value) {
  return serde.loads(nb::make_tuple(
      Str(value.type), nb::bytes(value.bytes.data(), value.bytes.size())));
}

nb::object ValueToPy(const Value& value, const Serde& serde) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return nb::none();
    case Value::Kind::kBool:
      return nb::bool_(value.as_bool());
    case Value::Kind::kInt:
      return nb::steal(PyLong_FromLongLong(value.as_int()));
    case Value::Kind::kDouble:
      return nb::steal(PyFloat_FromDouble(value.as_double()));
    case Value::Kind::kString:
      return Str(value.as_string());
    case Value::Kind::kBytes:
      return nb::bytes(value.as_bytes().data.data(),
                       value.as_bytes().data.size());
    case Value::Kind::kArray: {
      const Value::Array& array = value.as_array();
      nb::list out;
      for (const Value& item : array) out.append(ValueToPy(item, serde));
      return out;
    }
    case Value::Kind::kMap: {
      nb::dict out;
      for (const auto& [key, item] : value.as_map()) {
        out[Str(key)] = ValueToPy(item, serde);
      }
      return out;
    }
    case Value::Kind::kExt:
      return LoadExt(value.as_ext(), serde);
  }
  return nb::none();
}

nb::object MetadataToPy(const Value& metadata, const Serde& serde) {
  if (const Value* exact = metadata.Find(kExactMetadataKey);
      exact != nullptr && exact->is_ext()) {
    return LoadExt(exact->as_ext(), serde);
  }
  return ValueToPy(metadata, serde);
}

nb::dict ConfigToPy(const std::string& thread_id, const std::string& ns,
                    const std::string& checkpoint_id) {
  nb::dict configurable;
  configurable["thread_id"] = Str(thread_id);
  configurable["checkpoint_ns"] = Str(ns);
  configurable["checkpoint_id"] = Str(checkpoint_id);
  nb::dict out;
  out["configurable"] = configurable;
  return out;
}

nb::object TupleToPy(const CheckpointTuple& tuple, const Serde& serde) {
  const Checkpoint& cp = tuple.checkpoint;
  const std::string& thread = *tuple.config.thread_id;
  const std::string& ns = tuple.config.checkpoint_ns.value_or("");
  nb::dict values;
  for (const auto& [channel, typed] : cp.channel_values) {
    values[Str(channel)] = Load(serde, typed);
  }
  nb::dict seen;
  for (const auto& [node, versions] : cp.versions_seen) {
    seen[Str(node)] = VersionsToPy(versions);
  }
  nb::dict checkpoint;
  checkpoint["v"] = nb::steal(PyLong_FromLongLong(cp.v));
  checkpoint["id"] = Str(cp.id);
  checkpoint["ts"] = Str(cp.ts);
  checkpoint["channel_values"] = values;
  checkpoint["channel_versions"] = VersionsToPy(cp.channel_versions);
  checkpoint["versions_seen"] = seen;
  if (cp.updated_channels) {
    nb::list updated;
    for (const std::string& channel : *cp.updated_channels) {
      updated.append(Str(channel));
    }
    checkpoint["updated_channels"] = updated;
  } else {
    checkpoint["updated_channels"] = nb::none();
  }
  if (cp.pending_sends) {
    nb::list sends;
    for (const TypedValue& send : *cp.pending_sends) {
      sends.append(Load(serde, send));
    }
    checkpoint["pending_sends"] = sends;
  }
  nb::list writes;
  for (const PendingWrite& write : tuple.pending_writes) {
    writes.append(nb::make_tuple(Str(write.task_id), Str(write.channel),
                                 Load(serde, write.value)));
  }
  nb::object parent = nb::none();
  if (tuple.parent_config && tuple.parent_config->checkpoint_id) {
    parent = ConfigToPy(thread, ns, *tuple.parent_config->checkpoint_id);
  }
  // tuple.__new__(CheckpointTuple, items): what the namedtuple's own
  // __new__ does, without its Python frame.
  nb::object args = nb::make_tuple(nb::make_tuple(
      ConfigToPy(thread, ns, *tuple.config.checkpoint_id), checkpoint,
      MetadataToPy(tuple.metadata, serde), parent, writes));
  PyObject* out = PyTuple_Type.tp_new(
      reinterpret_cast<PyTypeObject*>(TupleClass().ptr()), args.ptr(), nullptr);
  if (out == nullptr) throw nb::python_error();
  return nb::steal(out);
}

nb::dict DeltaHistoryToPy(const DeltaHistory& history,
                          const std::vector<std::string>& channels,
                          const Serde& serde) {
  nb::dict out;
  for (const std::string& channel : channels) {
    nb::dict entry;
    nb::list writes;
    auto it = history.find(channel);
    if (it != history.end()) {
      for (const PendingWrite& write : it->second.writes) {
        writes.append(nb::make_tuple(Str(write.task_id), Str(write.channel),
                                     Load(serde, write.value)));
      }
      entry["writes"] = writes;
      if (it->second.seed) entry["seed"] = Load(serde, *it->second.seed);
    } else {
      entry["writes"] = writes;
    }
    out[Str(channel)] = entry;
  }
  return out;
}

}  // namespace rockpoint::py
