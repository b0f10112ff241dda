// JS -> C++ conversions (see convert.h).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "native/convert.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint::node {
namespace {

constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 - 1

// A field path for error messages, built only when an error is thrown.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;  // used when index < 0.
  int64_t index = -1;

  std::string ToString() const {
    std::string prefix = parent ? parent->ToString() : std::string();
    if (index >= 0) return prefix + "[" + std::to_string(index) + "]";
    if (prefix.empty()) return std::string(key);
    return prefix + "." + std::string(key);
  }
};

[[noreturn]] void ThrowType(Napi::Env env, const std::string& message) {
  throw Napi::TypeError::New(env, message);
}

// Own enumerable string keys of `object`.
Napi::Array OwnKeys(const Napi::Object& object) {
  napi_value keys = nullptr;
  napi_status status = napi_get_all_property_names(
      object.Env(), object, napi_key_own_only,
      static_cast<napi_key_filter>(napi_key_enumerable | napi_key_skip_symbols),
      napi_key_numbers_to_strings, &keys);
  NAPI_THROW_IF_FAILED(object.Env(), status, Napi::Array());
  return Napi::Array(object.Env(), keys);
}

bool IsAbsent(const Napi::Value& value) {
  return value.IsUndefined() || value.IsNull();
}

std::string BytesFromJs(const Napi::Value& value, const std::string& field) {
  if (value.IsString()) return value.As<Napi::String>().Utf8Value();
  if (value.IsTypedArray()) {
    auto array = value.As<Napi::TypedArray>();
    if (array.TypedArrayType() == napi_uint8_array ||
        array.TypedArrayType() == napi_int8_array ||
        array.TypedArrayType() == napi_uint8_clamped_array) {
      auto bytes = value.As<Napi::Uint8Array>();
      return std::string(reinterpret_cast<const char*>(bytes.Data()),
                         bytes.ByteLength());
    }
  }
  if (value.IsBuffer()) {
    auto buffer = value.As<Napi::Buffer<char>>();
    return std::string(buffer.Data(), buffer.Length());
  }
  ThrowType(value.Env(), field + " must be a Uint8Array or a string, got " +
                             TypeName(value));
}

ChannelVersion VersionFromJs(const Napi::Value& value,
                             const std::string& field) {
  if (value.IsString()) return value.As<Napi::String>().Utf8Value();
  if (value.IsNumber()) {
    double d = value.As<Napi::Number>().DoubleValue();
    if (std::trunc(d) == d && std::fabs(d) <= kMaxSafeInteger) {
      return static_cast<int64_t>(d);
    }
    ThrowType(value.Env(), field + " must be an integer or a string, got " +
                               std::to_string(d));
  }
  ThrowType(value.Env(),
            field + " must be an integer or a string, got " + TypeName(value));
}

// An array or object that `depth` others enclose, under the argument
// `root`: deeper than the engine keeps metadata (a cycle, too) is refused
// with the engine's message for such metadata.
void CheckNesting(Napi::Env env, int depth, const char* root) {
  if (depth < kMaxMetadataNesting) return;
  ThrowType(env, std::string(root) + " nests deeper than " +
                     std::to_string(kMaxMetadataNesting) + " maps and arrays");
}

// The Value of `value` at `path` under the argument `root`, which `depth`
// arrays and objects enclose.
Value ValueFromJsAt(const Napi::Value& value, const Path& path, int depth,
                    const char* root) {
  Napi::Env env = value.Env();
  switch (value.Type()) {
    case napi_null:
    case napi_undefined:
      return Value();
    case napi_boolean:
      return Value(value.As<Napi::Boolean>().Value());
    case napi_number: {
      double d = value.As<Napi::Number>().DoubleValue();
      if (std::trunc(d) == d && std::fabs(d) <= kMaxSafeInteger) {
        return Value(static_cast<int64_t>(d));
      }
      return Value(d);
    }
    case napi_string:
      return Value(value.As<Napi::String>().Utf8Value());
    case napi_object:
      break;
    default:
      ThrowType(env, path.ToString() + ": cannot store a " + TypeName(value) +
                         " (not JSON-like)");
  }
  if (value.IsArray()) {
    CheckNesting(env, depth, root);
    auto array = value.As<Napi::Array>();
    Value::Array out;
    uint32_t length = array.Length();
    out.reserve(length);
    for (uint32_t i = 0; i < length; ++i) {
      Path item{&path, {}, static_cast<int64_t>(i)};
      out.push_back(ValueFromJsAt(array.Get(i), item, depth + 1, root));
    }
    return Value(std::move(out));
  }
  if (value.IsTypedArray() || value.IsBuffer()) {
    return Value(serde::Bytes{BytesFromJs(value, path.ToString())});
  }
  auto object = value.As<Napi::Object>();
  if (object.HasOwnProperty(kSerdeMarkerKey)) {
    std::string type = RequiredString(object.Get("type"), "serde type");
    std::string data =
        BytesFromJs(object.Get("bytes"), path.ToString() + ".bytes");
    if (type.find('\0') != std::string::npos) {
      ThrowType(env, path.ToString() + ": serde type contains NUL");
    }
    std::string payload = std::move(type);
    payload.push_back('\0');
    payload += data;
    return Value(serde::Ext{kSerdeExtTag, std::move(payload)});
  }
  CheckNesting(env, depth, root);
  Napi::Array keys = OwnKeys(object);
  Value::Map out;
  uint32_t length = keys.Length();
  for (uint32_t i = 0; i < length; ++i) {
    Napi::Value key = keys.Get(i);
    std::string name = key.As<Napi::String>().Utf8Value();
    Napi::Value member = object.Get(key);
    if (member.IsUndefined()) continue;
    Path child{&path, name, -1};
    out.emplace(name, ValueFromJsAt(member, child, depth + 1, root));
  }
  return Value(std::move(out));
}

}  // namespace

const char* TypeName(const Napi::Value& value) {
  switch (value.Type()) {
    case napi_undefined:
      return "undefined";
    case napi_null:
      return "null";
    case napi_boolean:
      return "boolean";
    case napi_number:
      return "number";
    case napi_string:
      return "string";
    case napi_symbol:
      return "symbol";
    case napi_object:
      return value.IsArray() ? "array" : "object";
    case napi_function:
      return "function";
    case napi_external:
      return "external";
    case napi_bigint:
      return "bigint";
  }
  return "unknown";
}

std::optional<std::string> OptionalString(const Napi::Object& object,
                                          const char* key, const char* field) {
  Napi::Value value = object.Get(key);
  if (IsAbsent(value)) return std::nullopt;
  if (!value.IsString()) {
    ThrowType(object.Env(), std::string(field) + "." + key +
                                " must be a string, got " + TypeName(value));
  }
  return value.As<Napi::String>().Utf8Value();
}

std::string RequiredString(const Napi::Value& value, const char* field) {
  if (!value.IsString()) {
    ThrowType(value.Env(),
              std::string(field) + " must be a string, got " + TypeName(value));
  }
  return value.As<Napi::String>().Utf8Value();
}

std::vector<std::string> StringArray(const Napi::Value& value,
                                     const char* field) {
  if (!value.IsArray()) {
    ThrowType(value.Env(),
              std::string(field) + " must be an array, got " + TypeName(value));
  }
  auto array = value.As<Napi::Array>();
  std::vector<std::string> out;
  out.reserve(array.Length());
  for (uint32_t i = 0; i < array.Length(); ++i) {
    Napi::Value item = array.Get(i);
    if (!item.IsString()) {
      ThrowType(value.Env(), std::string(field) + "[" + std::to_string(i) +
                                 "] must be a string, got " + TypeName(item));
    }
    out.push_back(item.As<Napi::String>().Utf8Value());
  }
  return out;
}

CheckpointConfig ConfigFromJs(const Napi::Value& value, const char* field) {
  CheckpointConfig config;
  if (IsAbsent(value)) return config;
  if (!value.IsObject()) {
    ThrowType(value.Env(), std::string(field) + " must be an object, got " +
                               TypeName(value));
  }
  auto object = value.As<Napi::Object>();
  config.thread_id = OptionalString(object, "thread_id", field);
  config.checkpoint_ns = OptionalString(object, "checkpoint_ns", field);
  config.checkpoint_id = OptionalString(object, "checkpoint_id", field);
  return config;
}

TypedValue TypedFromJs(const Napi::Value& value, const std::string& field) {
  if (!value.IsArray() || value.As<Napi::Array>().Length() != 2) {
    ThrowType(value.Env(),
              field + " must be a [type, bytes] pair, got " + TypeName(value));
  }
  auto pair = value.As<Napi::Array>();
  TypedValue typed;
  Napi::Value type = pair.Get(uint32_t{0});
  if (!type.IsString()) {
    ThrowType(value.Env(),
              field + "[0] (type) must be a string, got " + TypeName(type));
  }
  typed.type = type.As<Napi::String>().Utf8Value();
  typed.bytes = BytesFromJs(pair.Get(uint32_t{1}), field + "[1]");
  return typed;
}

ChannelVersions VersionsFromJs(const Napi::Value& value, const char* field) {
  ChannelVersions versions;
  if (IsAbsent(value)) return versions;
  if (!value.IsObject() || value.IsArray()) {
    ThrowType(value.Env(), std::string(field) + " must be an object, got " +
                               TypeName(value));
  }
  auto object = value.As<Napi::Object>();
  Napi::Array keys = OwnKeys(object);
  for (uint32_t i = 0; i < keys.Length(); ++i) {
    Napi::Value key = keys.Get(i);
    std::string channel = key.As<Napi::String>().Utf8Value();
    Napi::Value version = object.Get(key);
    if (version.IsUndefined()) continue;
    versions.emplace(
        channel, VersionFromJs(version, std::string(field) + "." + channel));
  }
  return versions;
}

Checkpoint CheckpointFromJs(const Napi::Value& value) {
  Napi::Env env = value.Env();
  if (!value.IsObject()) {
    ThrowType(env, std::string("checkpoint must be an object, got ") +
                       TypeName(value));
  }
  auto object = value.As<Napi::Object>();
  Checkpoint checkpoint;
  Napi::Value v = object.Get("v");
  if (!v.IsNumber()) {
    ThrowType(env,
              std::string("checkpoint.v must be a number, got ") + TypeName(v));
  }
  checkpoint.v = v.As<Napi::Number>().Int64Value();
  checkpoint.id = RequiredString(object.Get("id"), "checkpoint.id");
  Napi::Value ts = object.Get("ts");
  checkpoint.ts =
      IsAbsent(ts) ? std::string() : RequiredString(ts, "checkpoint.ts");

  Napi::Value values = object.Get("channel_values");
  if (!IsAbsent(values)) {
    if (!values.IsObject()) {
      ThrowType(env, "checkpoint.channel_values must be an object");
    }
    auto map = values.As<Napi::Object>();
    Napi::Array keys = OwnKeys(map);
    for (uint32_t i = 0; i < keys.Length(); ++i) {
      Napi::Value key = keys.Get(i);
      std::string channel = key.As<Napi::String>().Utf8Value();
      checkpoint.channel_values.emplace(
          channel,
          TypedFromJs(map.Get(key), "checkpoint.channel_values." + channel));
    }
  }
  checkpoint.channel_versions = VersionsFromJs(object.Get("channel_versions"),
                                               "checkpoint.channel_versions");

  Napi::Value seen = object.Get("versions_seen");
  if (!IsAbsent(seen)) {
    if (!seen.IsObject()) {
      ThrowType(env, "checkpoint.versions_seen must be an object");
    }
    auto map = seen.As<Napi::Object>();
    Napi::Array keys = OwnKeys(map);
    for (uint32_t i = 0; i < keys.Length(); ++i) {
      Napi::Value key = keys.Get(i);
      std::string node = key.As<Napi::String>().Utf8Value();
      checkpoint.versions_seen.emplace(
          node, VersionsFromJs(map.Get(key), "checkpoint.versions_seen"));
    }
  }

  Napi::Value updated = object.Get("updated_channels");
  if (!IsAbsent(updated)) {
    checkpoint.updated_channels =
        StringArray(updated, "checkpoint.updated_channels");
  }
  Napi::Value sends = object.Get("pending_sends");
  if (!IsAbsent(sends)) {
    if (!sends.IsArray()) {
      ThrowType(env, "checkpoint.pending_sends must be an array");
    }
    auto array = sends.As<Napi::Array>();
    std::vector<TypedValue> out;
    for (uint32_t i = 0; i < array.Length(); ++i) {
      out.push_back(TypedFromJs(
          array.Get(i), "checkpoint.pending_sends[" + std::to_string(i) + "]"));
    }
    checkpoint.pending_sends = std::move(out);
  }
  return checkpoint;
}

Value ValueFromJs(const Napi::Value& value, const char* field) {
  Path root{nullptr, field, -1};
  return ValueFromJsAt(value, root, 0, field);
}

std::vector<ChannelWrite> WritesFromJs(const Napi::Value& value) {
  Napi::Env env = value.Env();
  if (!value.IsArray()) {
    ThrowType(env,
              std::string("writes must be an array, got ") + TypeName(value));
  }
  auto array = value.As<Napi::Array>();
  std::vector<ChannelWrite> writes;
  writes.reserve(array.Length());
  for (uint32_t i = 0; i < array.Length(); ++i) {
    std::string field = "writes[" + std::to_string(i) + "]";
    Napi::Value item = array.Get(i);
    if (!item.IsArray() || item.As<Napi::Array>().Length() != 3) {
      ThrowType(env, field + " must be a [channel, type, bytes] triple");
    }
    auto triple = item.As<Napi::Array>();
    ChannelWrite write;
    write.channel = RequiredString(triple.Get(uint32_t{0}), "write channel");
    write.value.type = RequiredString(triple.Get(uint32_t{1}), "write type");
    write.value.bytes = BytesFromJs(triple.Get(uint32_t{2}), field + "[2]");
    writes.push_back(std::move(write));
  }
  return writes;
}

namespace {

// The longest sweep interval: a year, far from where steady_clock's
// nanoseconds would overflow when the sweeper adds it to now.
constexpr double kMaxSweepIntervalMs = 365.0 * 24 * 3600 * 1000;
// Durations past this many seconds (three billion years) reach before any
// instant RetentionTime holds: they are clamped to it, which changes
// nothing the rule decides.
constexpr double kMaxRetentionSeconds = 1e17;
// The instants RetentionTime (int64 nanoseconds since 1970) holds, in
// milliseconds.
constexpr double kMaxTimeMs = 9.2e12;

// The number member `key` of `object`, nullopt when absent; a TypeError
// unless it is a finite number.
std::optional<double> NumberMember(const Napi::Object& object, const char* key,
                                   const char* field) {
  Napi::Value value = object.Get(key);
  if (IsAbsent(value)) return std::nullopt;
  double number =
      value.IsNumber() ? value.As<Napi::Number>().DoubleValue() : std::nan("");
  if (!std::isfinite(number)) {
    ThrowType(object.Env(),
              std::string(field) + "." + key + " must be a finite number");
  }
  return number;
}

// A duration in ms as whole seconds, rounded away from zero: up when
// positive (nothing expires before its time), down when negative (it stays
// negative for ValidateRetentionPolicy to refuse).
std::optional<std::chrono::seconds> SecondsMember(const Napi::Object& object,
                                                  const char* key,
                                                  const char* field) {
  auto ms = NumberMember(object, key, field);
  if (!ms) return std::nullopt;
  double seconds = *ms >= 0 ? std::ceil(*ms / 1000) : std::floor(*ms / 1000);
  seconds = std::clamp(seconds, -kMaxRetentionSeconds, kMaxRetentionSeconds);
  return std::chrono::seconds(static_cast<int64_t>(seconds));
}

// A count as the policy's size_t: a TypeError unless it is an integer that
// one holds (ValidateRetentionPolicy judges its value).
std::optional<size_t> CountMember(const Napi::Object& object, const char* key,
                                  const char* field) {
  auto count = NumberMember(object, key, field);
  if (!count) return std::nullopt;
  if (*count != std::floor(*count) || *count < 0 || *count > kMaxSafeInteger) {
    ThrowType(object.Env(),
              std::string(field) + "." + key + " must be a safe integer >= 0");
  }
  return static_cast<size_t>(*count);
}

// The policy `value` converted (nullopt for undefined or null), not yet
// validated.
std::optional<RetentionPolicy> PolicyFromJs(const Napi::Value& value,
                                            const char* field) {
  if (IsAbsent(value)) return std::nullopt;
  if (!value.IsObject() || value.IsArray()) {
    ThrowType(value.Env(), std::string(field) + " must be an object");
  }
  Napi::Object object = value.As<Napi::Object>();
  RetentionPolicy policy;
  policy.max_idle = SecondsMember(object, "maxIdleMs", field);
  policy.max_age = SecondsMember(object, "maxAgeMs", field);
  policy.keep_last = CountMember(object, "keepLast", field);
  if (auto ms = NumberMember(object, "sweepIntervalMs", field)) {
    if (*ms > kMaxSweepIntervalMs) {
      ThrowType(value.Env(),
                std::string(field) + ".sweepIntervalMs must be at most a year");
    }
    policy.sweep_interval = std::chrono::milliseconds(
        static_cast<int64_t>(std::max(std::ceil(*ms), -kMaxSweepIntervalMs)));
  }
  if (auto batch = CountMember(object, "sweepBatchThreads", field)) {
    policy.sweep_batch_threads = *batch;
  }
  return policy;
}

}  // namespace

std::optional<RetentionPolicy> RetentionFromJs(const Napi::Value& value,
                                               const char* field) {
  std::optional<RetentionPolicy> policy = PolicyFromJs(value, field);
  if (!policy) return std::nullopt;
  Status status = ValidateRetentionPolicy(*policy);
  if (!status.ok()) {
    ThrowType(value.Env(), std::string(field) + ": " + status.message());
  }
  return policy;
}

Napi::Value RetentionError(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::optional<RetentionPolicy> policy = PolicyFromJs(info[0], "retention");
  if (!policy) ThrowType(env, "retention must be an object");
  Status status = ValidateRetentionPolicy(*policy);
  if (status.ok()) return env.Null();
  return Napi::String::New(env, status.message());
}

RetentionTime TimeFromJs(const Napi::Value& value, const char* field) {
  double ms =
      value.IsNumber() ? value.As<Napi::Number>().DoubleValue() : std::nan("");
  if (!std::isfinite(ms) || std::fabs(ms) > kMaxTimeMs) {
    ThrowType(value.Env(),
              std::string(field) +
                  " must be milliseconds since 1970 within the years "
                  "1678-2261");
  }
  const std::chrono::milliseconds since_epoch(static_cast<int64_t>(ms));
  return RetentionTime(
      std::chrono::duration_cast<RetentionClock::duration>(since_epoch));
}

}  // namespace rockpoint::node
