// JS <-> C++ conversions of the item store (see item_convert.h).
#include "native/item_convert.h"

#include <cmath>
#include <string>
#include <utility>

#include "native/convert.h"

namespace rockpoint::node {
namespace {

constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 - 1

[[noreturn]] void Throw(Napi::Env env, const std::string& message) {
  throw Napi::TypeError::New(env, message);
}

bool Absent(const Napi::Value& value) {
  return value.IsUndefined() || value.IsNull();
}

Napi::Object ObjectAt(const Napi::Value& value, const std::string& field) {
  if (!value.IsObject() || value.IsArray()) {
    Throw(value.Env(), field + " must be an object, got " + TypeName(value));
  }
  return value.As<Napi::Object>();
}

std::string StringAt(const Napi::Value& value, const std::string& field) {
  if (!value.IsString()) {
    Throw(value.Env(), field + " must be a string, got " + TypeName(value));
  }
  return value.As<Napi::String>().Utf8Value();
}

bool BoolAt(const Napi::Object& object, const char* key,
            const std::string& field, bool fallback) {
  Napi::Value value = object.Get(key);
  if (Absent(value)) return fallback;
  if (!value.IsBoolean()) {
    Throw(object.Env(),
          field + "." + key + " must be a boolean, got " + TypeName(value));
  }
  return value.As<Napi::Boolean>().Value();
}

// A finite number member; nullopt when absent.
std::optional<double> NumberAt(const Napi::Object& object, const char* key,
                               const std::string& field) {
  Napi::Value value = object.Get(key);
  if (Absent(value)) return std::nullopt;
  if (!value.IsNumber()) {
    Throw(object.Env(),
          field + "." + key + " must be a number, got " + TypeName(value));
  }
  return value.As<Napi::Number>().DoubleValue();
}

// A non-negative integer member (at most 2^53 - 1); `fallback` when absent.
size_t CountAt(const Napi::Object& object, const char* key,
               const std::string& field, size_t fallback) {
  std::optional<double> number = NumberAt(object, key, field);
  if (!number) return fallback;
  const double d = *number;
  if (!(d >= 0) || std::trunc(d) != d || d > kMaxSafeInteger) {
    Throw(object.Env(), field + "." + key + " must be an integer >= 0, got " +
                            std::to_string(d));
  }
  return static_cast<size_t>(d);
}

Namespace NamespaceAt(const Napi::Value& value, const std::string& field) {
  if (!value.IsArray()) {
    Throw(value.Env(),
          field + " must be an array of strings, got " + TypeName(value));
  }
  auto array = value.As<Napi::Array>();
  Namespace ns;
  ns.reserve(array.Length());
  for (uint32_t i = 0; i < array.Length(); ++i) {
    ns.push_back(StringAt(array.Get(i), field + "[" + std::to_string(i) + "]"));
  }
  return ns;
}

std::vector<float> VectorAt(const Napi::Value& value,
                            const std::string& field) {
  std::vector<float> out;
  if (value.IsTypedArray() &&
      value.As<Napi::TypedArray>().TypedArrayType() == napi_float32_array) {
    auto array = value.As<Napi::Float32Array>();
    out.assign(array.Data(), array.Data() + array.ElementLength());
    return out;
  }
  if (!value.IsArray()) {
    Throw(value.Env(), field +
                           " must be a Float32Array or an array of "
                           "numbers, got " +
                           TypeName(value));
  }
  auto array = value.As<Napi::Array>();
  out.reserve(array.Length());
  for (uint32_t i = 0; i < array.Length(); ++i) {
    Napi::Value item = array.Get(i);
    if (!item.IsNumber()) {
      Throw(value.Env(), field + "[" + std::to_string(i) +
                             "] must be a number, got " + TypeName(item));
    }
    out.push_back(static_cast<float>(item.As<Napi::Number>().DoubleValue()));
  }
  return out;
}

// A map value: the item's value or a filter.
serde::Value::Map MapAt(const Napi::Value& value, const std::string& field) {
  ObjectAt(value, field);
  Value converted = ValueFromJs(value, field.c_str());
  if (!converted.is_map()) Throw(value.Env(), field + " must be an object");
  return std::move(converted.as_map());
}

GetOp GetFromJs(const Napi::Object& op, const std::string& field) {
  GetOp get;
  get.ns = NamespaceAt(op.Get("namespace"), field + ".namespace");
  get.key = StringAt(op.Get("key"), field + ".key");
  get.refresh_ttl = BoolAt(op, "refreshTtl", field, true);
  return get;
}

PutOp PutFromJs(const Napi::Object& op, const std::string& field) {
  PutOp put;
  put.ns = NamespaceAt(op.Get("namespace"), field + ".namespace");
  put.key = StringAt(op.Get("key"), field + ".key");
  Napi::Value value = op.Get("value");
  if (!Absent(value)) put.value = Value(MapAt(value, field + ".value"));
  Napi::Value vectors = op.Get("vectors");
  if (!Absent(vectors)) {
    if (!vectors.IsArray()) {
      Throw(op.Env(),
            field + ".vectors must be an array, got " + TypeName(vectors));
    }
    auto list = vectors.As<Napi::Array>();
    for (uint32_t i = 0; i < list.Length(); ++i) {
      const std::string at = field + ".vectors[" + std::to_string(i) + "]";
      Napi::Value pair = list.Get(i);
      if (!pair.IsArray() || pair.As<Napi::Array>().Length() != 2) {
        Throw(op.Env(), at + " must be a [field, vector] pair");
      }
      auto entry = pair.As<Napi::Array>();
      FieldVector fv;
      fv.field = StringAt(entry.Get(uint32_t{0}), at + "[0]");
      fv.vector = VectorAt(entry.Get(uint32_t{1}), at + "[1]");
      put.vectors.push_back(std::move(fv));
    }
  }
  // ttl: absent (undefined) -> the store's default; null -> never.
  Napi::Value ttl = op.Get("ttl");
  if (ttl.IsNull()) {
    put.ttl = ItemTtl::Never();
  } else if (!ttl.IsUndefined()) {
    if (!ttl.IsNumber()) {
      Throw(op.Env(), field + ".ttl must be a number of minutes or null, got " +
                          TypeName(ttl));
    }
    put.ttl = ItemTtl::Minutes(ttl.As<Napi::Number>().DoubleValue());
  }
  return put;
}

SearchOp SearchFromJs(const Napi::Object& op, const std::string& field) {
  SearchOp search;
  search.ns_prefix =
      NamespaceAt(op.Get("namespacePrefix"), field + ".namespacePrefix");
  Napi::Value filter = op.Get("filter");
  if (!Absent(filter)) search.filter = MapAt(filter, field + ".filter");
  Napi::Value query = op.Get("query");
  if (!Absent(query)) search.query = VectorAt(query, field + ".query");
  search.limit = CountAt(op, "limit", field, search.limit);
  search.offset = CountAt(op, "offset", field, search.offset);
  search.refresh_ttl = BoolAt(op, "refreshTtl", field, true);
  return search;
}

ListNamespacesOp ListFromJs(const Napi::Object& op, const std::string& field) {
  ListNamespacesOp list;
  Napi::Value conditions = op.Get("conditions");
  if (!Absent(conditions)) {
    if (!conditions.IsArray()) {
      Throw(op.Env(), field + ".conditions must be an array, got " +
                          TypeName(conditions));
    }
    auto array = conditions.As<Napi::Array>();
    for (uint32_t i = 0; i < array.Length(); ++i) {
      const std::string at = field + ".conditions[" + std::to_string(i) + "]";
      Napi::Object condition = ObjectAt(array.Get(i), at);
      const std::string type =
          StringAt(condition.Get("matchType"), at + ".matchType");
      NamespaceCondition out;
      if (type == "prefix") {
        out.match = NamespaceMatch::kPrefix;
      } else if (type == "suffix") {
        out.match = NamespaceMatch::kSuffix;
      } else {
        Throw(op.Env(), at +
                            ".matchType must be \"prefix\" or \"suffix\", "
                            "got \"" +
                            type + "\"");
      }
      out.path = NamespaceAt(condition.Get("path"), at + ".path");
      list.conditions.push_back(std::move(out));
    }
  }
  if (!Absent(op.Get("maxDepth"))) {
    list.max_depth = CountAt(op, "maxDepth", field, 0);
  }
  list.limit = CountAt(op, "limit", field, list.limit);
  list.offset = CountAt(op, "offset", field, list.offset);
  return list;
}

Napi::Array NamespaceToJs(Napi::Env env, const Namespace& ns) {
  Napi::Array out = Napi::Array::New(env, ns.size());
  for (size_t i = 0; i < ns.size(); ++i) {
    out.Set(static_cast<uint32_t>(i), Napi::String::New(env, ns[i]));
  }
  return out;
}

Napi::Object ItemToJs(Napi::Env env, const StoreItem& item, bool with_score) {
  Napi::Object out = Napi::Object::New(env);
  bool saw_serde = false;
  out.Set("value", ValueToJs(env, item.value, &saw_serde));
  out.Set("key", Napi::String::New(env, item.key));
  out.Set("namespace", NamespaceToJs(env, item.ns));
  out.Set("createdAt",
          Napi::Number::New(env, static_cast<double>(item.created_at_us)));
  out.Set("updatedAt",
          Napi::Number::New(env, static_cast<double>(item.updated_at_us)));
  if (with_score) {
    out.Set("score",
            item.score ? Napi::Number::New(env, *item.score) : env.Undefined());
  }
  return out;
}

}  // namespace

StoreOpenOptions StoreOptionsFromJs(const Napi::Value& value) {
  StoreOpenOptions options;
  if (Absent(value)) return options;
  const std::string field = "options";
  Napi::Object object = ObjectAt(value, field);
  options.create_if_missing =
      BoolAt(object, "createIfMissing", field, options.create_if_missing);
  options.read_only = BoolAt(object, "readOnly", field, options.read_only);
  options.sync_writes =
      BoolAt(object, "syncWrites", field, options.sync_writes);
  if (!Absent(object.Get("dims"))) {
    StoreIndexOptions index;
    index.dims = CountAt(object, "dims", field, 0);
    index.exact_search_max_vectors = CountAt(
        object, "exactSearchMaxVectors", field, index.exact_search_max_vectors);
    index.hnsw_links = CountAt(object, "hnswLinks", field, index.hnsw_links);
    index.hnsw_build_candidates = CountAt(object, "hnswBuildCandidates", field,
                                          index.hnsw_build_candidates);
    index.hnsw_search_candidates = CountAt(object, "hnswSearchCandidates",
                                           field, index.hnsw_search_candidates);
    options.index = index;
  }
  Napi::Value ttl_value = object.Get("ttl");
  if (!Absent(ttl_value)) {
    const std::string at = field + ".ttl";
    Napi::Object ttl = ObjectAt(ttl_value, at);
    StoreTtlOptions& out = options.ttl;
    out.default_ttl_minutes = NumberAt(ttl, "defaultTtl", at);
    out.refresh_on_read = BoolAt(ttl, "refreshOnRead", at, out.refresh_on_read);
    out.sweep_interval_minutes = NumberAt(ttl, "sweepIntervalMinutes", at);
  }
  return options;
}

std::vector<StoreOp> StoreOpsFromJs(const Napi::Value& value) {
  if (!value.IsArray()) {
    Throw(value.Env(),
          std::string("ops must be an array, got ") + TypeName(value));
  }
  auto array = value.As<Napi::Array>();
  std::vector<StoreOp> ops;
  ops.reserve(array.Length());
  for (uint32_t i = 0; i < array.Length(); ++i) {
    const std::string field = "ops[" + std::to_string(i) + "]";
    Napi::Object op = ObjectAt(array.Get(i), field);
    const std::string kind = StringAt(op.Get("kind"), field + ".kind");
    if (kind == "get") {
      ops.emplace_back(GetFromJs(op, field));
    } else if (kind == "put") {
      ops.emplace_back(PutFromJs(op, field));
    } else if (kind == "search") {
      ops.emplace_back(SearchFromJs(op, field));
    } else if (kind == "list") {
      ops.emplace_back(ListFromJs(op, field));
    } else {
      Throw(op.Env(), field +
                          ".kind must be \"get\", \"put\", \"search\" or "
                          "\"list\", got \"" +
                          kind + "\"");
    }
  }
  return ops;
}

Napi::Value StoreResultsToJs(Napi::Env env,
                             const std::vector<StoreOpResult>& results) {
  Napi::Array out = Napi::Array::New(env, results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    const StoreOpResult& result = results[i];
    Napi::Value js = env.Undefined();
    if (const auto* item = std::get_if<std::optional<StoreItem>>(&result)) {
      js = *item ? Napi::Value(ItemToJs(env, **item, false)) : env.Null();
    } else if (const auto* items =
                   std::get_if<std::vector<StoreItem>>(&result)) {
      Napi::Array list = Napi::Array::New(env, items->size());
      for (size_t j = 0; j < items->size(); ++j) {
        list.Set(static_cast<uint32_t>(j), ItemToJs(env, (*items)[j], true));
      }
      js = list;
    } else if (const auto* namespaces =
                   std::get_if<std::vector<Namespace>>(&result)) {
      Napi::Array list = Napi::Array::New(env, namespaces->size());
      for (size_t j = 0; j < namespaces->size(); ++j) {
        list.Set(static_cast<uint32_t>(j),
                 NamespaceToJs(env, (*namespaces)[j]));
      }
      js = list;
    }
    out.Set(static_cast<uint32_t>(i), js);
  }
  return out;
}

Napi::Value IndexStatsToJs(Napi::Env env,
                           const std::optional<StoreIndexStats>& stats) {
  if (!stats) return env.Null();
  Napi::Object out = Napi::Object::New(env);
  out.Set("vectors",
          Napi::Number::New(env, static_cast<double>(stats->vectors)));
  out.Set("approximateReady",
          Napi::Boolean::New(env, stats->approximate_ready));
  return out;
}

}  // namespace rockpoint::node
