// Conversions between the JS shapes the binding's JS layer (src/native.js)
// hands over and the engine's C++ types (engine/types.h).
//
// JS -> C++ (every function throws Napi::TypeError naming the field on a
// shape it does not accept; nothing is partially converted):
//   config       {thread_id?, checkpoint_ns?, checkpoint_id?}: each a string,
//                or undefined/null for "absent".
//   typed value  [type: string, bytes: Uint8Array | string], as produced by
//                the saver's serde.dumpsTyped.
//   version      an integer number or a string (kept exactly as given).
//   checkpoint   {v, id, ts, channel_values: {channel: typed},
//                 channel_versions: {channel: version},
//                 versions_seen: {node: {channel: version}},
//                 updated_channels?: string[], pending_sends?: typed[]}
//   value        (metadata, filters) null, boolean, number (a safe integer
//                -> int, else double), string, Uint8Array (bytes), array,
//                plain object; an object with an own "__rockpoint_serde__"
//                key and {type, bytes} is a serde-typed leaf, stored as a
//                msgpack ext of tag kSerdeExtTag. undefined members of an
//                object are dropped, undefined array items become null.
//                Arrays and objects nest at most kMaxMetadataNesting (255)
//                deep, the outermost counted: deeper (or cyclic) is a
//                TypeError "<field> nests deeper than 255 maps and arrays".
//   writes       [[channel, type, bytes], ...]
//   retention    {maxIdleMs?, maxAgeMs?, keepLast?, sweepIntervalMs?,
//                 sweepBatchThreads?} as src/retention.js normalizes it:
//                numbers, durations in whole seconds (max_idle, max_age)
//                or milliseconds (sweep_interval), rounded away from zero;
//                a policy ValidateRetentionPolicy refuses is a TypeError
//                too.
//   time         milliseconds since the epoch (Date#getTime), within the
//                years RetentionTime holds (1678-2261).
// C++ -> JS: the same shapes; a tuple is flattened to
//   {thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id?,
//    checkpoint, metadata, has_serde_metadata, pending_writes:
//    [[task_id, channel, type, bytes], ...]}; a retention report is
//   {threads_examined, threads_emptied, checkpoints_expired,
//    checkpoints_hidden, bytes} (numbers).
// Bytes come back as plain Uint8Arrays (copies).
//
// Thread-safety: JS thread only (they touch JS values).
#pragma once

#include <napi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rockpoint/retention.h"
#include "rockpoint/types.h"

namespace rockpoint::node {

// The msgpack ext tag of a metadata leaf serialized by the JS serde. Its
// payload is `<type> 0x00 <bytes>`. Persisted: do not change.
inline constexpr int8_t kSerdeExtTag = 0x6A;
// The key marking a serde-typed leaf in JS metadata.
inline constexpr const char* kSerdeMarkerKey = "__rockpoint_serde__";

// Reads an optional string member; absent for undefined or null.
std::optional<std::string> OptionalString(const Napi::Object& object,
                                          const char* key, const char* field);
// A required string argument.
std::string RequiredString(const Napi::Value& value, const char* field);
// "undefined", "null", "boolean", "number", "string", "array", "object",
// ...: the kind of `value`, for error messages.
const char* TypeName(const Napi::Value& value);
std::vector<std::string> StringArray(const Napi::Value& value,
                                     const char* field);

CheckpointConfig ConfigFromJs(const Napi::Value& value, const char* field);
TypedValue TypedFromJs(const Napi::Value& value, const std::string& field);
ChannelVersions VersionsFromJs(const Napi::Value& value, const char* field);
Checkpoint CheckpointFromJs(const Napi::Value& value);
// Metadata and filters. `field` names the argument in errors.
Value ValueFromJs(const Napi::Value& value, const char* field);
std::vector<ChannelWrite> WritesFromJs(const Napi::Value& value);
// A retention policy; nullopt for undefined or null.
std::optional<RetentionPolicy> RetentionFromJs(const Napi::Value& value,
                                               const char* field);
// retentionError(policy): the message of ValidateRetentionPolicy (naming the
// field in the engine's spelling: max_idle, keep_last, ...) for the policy
// as RetentionFromJs converts it, or null when it accepts it. The one check
// of the values; src/retention.js words and throws its error.
Napi::Value RetentionError(const Napi::CallbackInfo& info);
RetentionTime TimeFromJs(const Napi::Value& value, const char* field);

Napi::Value ValueToJs(Napi::Env env, const Value& value, bool* saw_serde);
Napi::Value BytesToJs(Napi::Env env, const std::string& bytes);
Napi::Object ConfigToJs(Napi::Env env, const CheckpointConfig& config);
Napi::Object TupleToJs(Napi::Env env, const CheckpointTuple& tuple);
Napi::Object DeltaHistoryToJs(Napi::Env env, const DeltaHistory& history);
Napi::Object ThreadPageToJs(Napi::Env env, const ThreadPage& page);
Napi::Object RetentionReportToJs(Napi::Env env, const RetentionReport& report);

}  // namespace rockpoint::node
