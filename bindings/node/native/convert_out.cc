// C++ -> JS conversions (see convert.h).
#include <cstring>
#include <string>

#include "native/convert.h"

namespace rockpoint::node {
namespace {

// Sets `object[key] = value` as an own data property, also for the key
// "__proto__" (which a plain assignment would turn into a prototype change).
void SetKey(Napi::Object& object, const std::string& key, Napi::Value value) {
  if (key == "__proto__") {
    object.DefineProperty(
        Napi::PropertyDescriptor::Value(key, value, napi_default_jsproperty));
    return;
  }
  object.Set(key, value);
}

Napi::Value VersionToJs(Napi::Env env, const ChannelVersion& version) {
  if (const auto* i = std::get_if<int64_t>(&version)) {
    return Napi::Number::New(env, static_cast<double>(*i));
  }
  return Napi::String::New(env, std::get<std::string>(version));
}

Napi::Object VersionsToJs(Napi::Env env, const ChannelVersions& versions) {
  Napi::Object out = Napi::Object::New(env);
  for (const auto& [channel, version] : versions) {
    SetKey(out, channel, VersionToJs(env, version));
  }
  return out;
}

Napi::Array TypedToJs(Napi::Env env, const TypedValue& typed) {
  Napi::Array out = Napi::Array::New(env, 2);
  out.Set(uint32_t{0}, Napi::String::New(env, typed.type));
  out.Set(uint32_t{1}, BytesToJs(env, typed.bytes));
  return out;
}

// Writes as [[task_id, channel, type, bytes], ...].
Napi::Array WritesToJs(Napi::Env env, const std::vector<PendingWrite>& writes) {
  Napi::Array out = Napi::Array::New(env, writes.size());
  for (size_t i = 0; i < writes.size(); ++i) {
    const PendingWrite& w = writes[i];
    Napi::Array item = Napi::Array::New(env, 4);
    item.Set(uint32_t{0}, Napi::String::New(env, w.task_id));
    item.Set(uint32_t{1}, Napi::String::New(env, w.channel));
    item.Set(uint32_t{2}, Napi::String::New(env, w.value.type));
    item.Set(uint32_t{3}, BytesToJs(env, w.value.bytes));
    out.Set(static_cast<uint32_t>(i), item);
  }
  return out;
}

}  // namespace

Napi::Value BytesToJs(Napi::Env env, const std::string& bytes) {
  Napi::Uint8Array array = Napi::Uint8Array::New(env, bytes.size());
  if (!bytes.empty()) std::memcpy(array.Data(), bytes.data(), bytes.size());
  return array;
}

Napi::Value ValueToJs(Napi::Env env, const Value& value, bool* saw_serde) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return env.Null();
    case Value::Kind::kBool:
      return Napi::Boolean::New(env, value.as_bool());
    case Value::Kind::kInt:
      return Napi::Number::New(env, static_cast<double>(value.as_int()));
    case Value::Kind::kDouble:
      return Napi::Number::New(env, value.as_double());
    case Value::Kind::kString:
      return Napi::String::New(env, value.as_string());
    case Value::Kind::kBytes:
      return BytesToJs(env, value.as_bytes().data);
    case Value::Kind::kArray: {
      const auto& items = value.as_array();
      Napi::Array out = Napi::Array::New(env, items.size());
      for (size_t i = 0; i < items.size(); ++i) {
        out.Set(static_cast<uint32_t>(i), ValueToJs(env, items[i], saw_serde));
      }
      return out;
    }
    case Value::Kind::kMap: {
      Napi::Object out = Napi::Object::New(env);
      for (const auto& [key, member] : value.as_map()) {
        SetKey(out, key, ValueToJs(env, member, saw_serde));
      }
      return out;
    }
    case Value::Kind::kExt: {
      const serde::Ext& ext = value.as_ext();
      Napi::Object out = Napi::Object::New(env);
      size_t nul = ext.data.find('\0');
      if (ext.type == kSerdeExtTag && nul != std::string::npos) {
        *saw_serde = true;
        out.Set(kSerdeMarkerKey, Napi::Boolean::New(env, true));
        out.Set("type", Napi::String::New(env, ext.data.substr(0, nul)));
        out.Set("bytes", BytesToJs(env, ext.data.substr(nul + 1)));
      } else {
        // Another component's extension: kept visible, never dropped.
        out.Set("$ext", Napi::Number::New(env, ext.type));
        out.Set("data", BytesToJs(env, ext.data));
      }
      return out;
    }
  }
  return env.Undefined();
}

Napi::Object ConfigToJs(Napi::Env env, const CheckpointConfig& config) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("thread_id", Napi::String::New(env, config.thread_id.value_or("")));
  out.Set("checkpoint_ns",
          Napi::String::New(env, config.checkpoint_ns.value_or("")));
  if (config.checkpoint_id) {
    out.Set("checkpoint_id", Napi::String::New(env, *config.checkpoint_id));
  }
  return out;
}

Napi::Object TupleToJs(Napi::Env env, const CheckpointTuple& tuple) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("thread_id",
          Napi::String::New(env, tuple.config.thread_id.value_or("")));
  out.Set("checkpoint_ns",
          Napi::String::New(env, tuple.config.checkpoint_ns.value_or("")));
  out.Set("checkpoint_id",
          Napi::String::New(env, tuple.config.checkpoint_id.value_or("")));
  if (tuple.parent_config && tuple.parent_config->checkpoint_id) {
    out.Set("parent_checkpoint_id",
            Napi::String::New(env, *tuple.parent_config->checkpoint_id));
  }

  const Checkpoint& cp = tuple.checkpoint;
  Napi::Object checkpoint = Napi::Object::New(env);
  checkpoint.Set("v", Napi::Number::New(env, static_cast<double>(cp.v)));
  checkpoint.Set("id", Napi::String::New(env, cp.id));
  checkpoint.Set("ts", Napi::String::New(env, cp.ts));
  Napi::Object values = Napi::Object::New(env);
  for (const auto& [channel, typed] : cp.channel_values) {
    SetKey(values, channel, TypedToJs(env, typed));
  }
  checkpoint.Set("channel_values", values);
  checkpoint.Set("channel_versions", VersionsToJs(env, cp.channel_versions));
  Napi::Object seen = Napi::Object::New(env);
  for (const auto& [node, versions] : cp.versions_seen) {
    SetKey(seen, node, VersionsToJs(env, versions));
  }
  checkpoint.Set("versions_seen", seen);
  if (cp.updated_channels) {
    Napi::Array updated = Napi::Array::New(env, cp.updated_channels->size());
    for (size_t i = 0; i < cp.updated_channels->size(); ++i) {
      updated.Set(static_cast<uint32_t>(i),
                  Napi::String::New(env, (*cp.updated_channels)[i]));
    }
    checkpoint.Set("updated_channels", updated);
  }
  if (cp.pending_sends) {
    Napi::Array sends = Napi::Array::New(env, cp.pending_sends->size());
    for (size_t i = 0; i < cp.pending_sends->size(); ++i) {
      sends.Set(static_cast<uint32_t>(i),
                TypedToJs(env, (*cp.pending_sends)[i]));
    }
    checkpoint.Set("pending_sends", sends);
  }
  out.Set("checkpoint", checkpoint);

  bool saw_serde = false;
  out.Set("metadata", ValueToJs(env, tuple.metadata, &saw_serde));
  out.Set("has_serde_metadata", Napi::Boolean::New(env, saw_serde));

  out.Set("pending_writes", WritesToJs(env, tuple.pending_writes));
  return out;
}

Napi::Object DeltaHistoryToJs(Napi::Env env, const DeltaHistory& history) {
  Napi::Object out = Napi::Object::New(env);
  for (const auto& [channel, entry] : history) {
    Napi::Object item = Napi::Object::New(env);
    item.Set("writes", WritesToJs(env, entry.writes));
    if (entry.seed) item.Set("seed", TypedToJs(env, *entry.seed));
    SetKey(out, channel, item);
  }
  return out;
}

Napi::Object ThreadPageToJs(Napi::Env env, const ThreadPage& page) {
  Napi::Object out = Napi::Object::New(env);
  Napi::Array threads = Napi::Array::New(env, page.threads.size());
  for (size_t i = 0; i < page.threads.size(); ++i) {
    const ThreadInfo& info = page.threads[i];
    Napi::Object thread = Napi::Object::New(env);
    thread.Set("thread_id", Napi::String::New(env, info.thread_id));
    Napi::Array namespaces = Napi::Array::New(env, info.namespaces.size());
    for (size_t j = 0; j < info.namespaces.size(); ++j) {
      const NamespaceInfo& ns = info.namespaces[j];
      Napi::Object item = Napi::Object::New(env);
      item.Set("checkpoint_ns", Napi::String::New(env, ns.checkpoint_ns));
      item.Set(
          "checkpoint_count",
          Napi::Number::New(env, static_cast<double>(ns.checkpoint_count)));
      item.Set("latest_checkpoint_id",
               Napi::String::New(env, ns.latest_checkpoint_id));
      item.Set("latest_ts", Napi::String::New(env, ns.latest_ts));
      namespaces.Set(static_cast<uint32_t>(j), item);
    }
    thread.Set("namespaces", namespaces);
    threads.Set(static_cast<uint32_t>(i), thread);
  }
  out.Set("threads", threads);
  if (page.next_after) {
    out.Set("next_after", Napi::String::New(env, *page.next_after));
  }
  return out;
}

Napi::Object RetentionReportToJs(Napi::Env env, const RetentionReport& report) {
  auto number = [env](uint64_t n) {
    return Napi::Number::New(env, static_cast<double>(n));
  };
  Napi::Object out = Napi::Object::New(env);
  out.Set("threads_examined", number(report.threads_examined));
  out.Set("threads_emptied", number(report.threads_emptied));
  out.Set("checkpoints_expired", number(report.checkpoints_expired));
  out.Set("checkpoints_hidden", number(report.checkpoints_hidden));
  out.Set("bytes", number(report.bytes));
  return out;
}

}  // namespace rockpoint::node
