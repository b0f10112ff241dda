// Conversions between the Python objects RockpointSaver hands over and the
// engine's C++ types (rockpoint/types.h). Every function needs the GIL.
//
// Python -> C++ (a wrong shape raises TypeError or ValueError naming the
// field; nothing is stored):
//   config      a RunnableConfig: config["configurable"] with thread_id (str,
//               or anything else, stringified), checkpoint_ns (str),
//               checkpoint_id (or its legacy name thread_ts; "" = absent).
//   typed       serde.dumps_typed's (type: str, data: bytes).
//   version     int (int64) or str, kept exactly; an integral float becomes
//               an int; any other value is a ValueError.
//   checkpoint  LangGraph's Checkpoint dict. Only channels named in
//               new_versions with a value are serialized (serde.dumps_typed).
//   metadata    see MetadataFromPy.
// C++ -> Python: LangGraph's CheckpointTuple, RunnableConfig and
// DeltaChannelHistory shapes, values revived with serde.loads_typed.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/retention.h"
#include "rockpoint/types.h"

namespace rockpoint::py {

namespace nb = nanobind;

// The msgpack ext tag of a value serialized by the saver's serde; payload
// `<type> 0x00 <bytes>`. Persisted, and shared with the Node binding.
inline constexpr int8_t kSerdeExtTag = 0x6A;

// The metadata key holding the exact metadata (a serde ext) when the
// engine-facing form lost Python type detail (bool or integral float stored
// as int). Persisted: do not change.
inline constexpr std::string_view kExactMetadataKey = "__rockpoint_exact__";

// The saver's serializer: dumps_typed and loads_typed bound once per call.
struct Serde {
  nb::object dumps;  // obj -> (type, bytes)
  nb::object loads;  // (type, bytes) -> obj
  explicit Serde(nb::handle serde)
      : dumps(serde.attr("dumps_typed")), loads(serde.attr("loads_typed")) {}
};

// ---- Python -> C++ --------------------------------------------------------

// Leaves shared by the saver's converters and the item store's
// (item_store_convert.cc):
// UTF-8 of a str; raises (python_error) for one that cannot be encoded.
std::string Utf8(PyObject* str);
// A value the engine has no kind for, kept exactly: serde.dumps_typed's
// bytes in an ext of kSerdeExtTag, `<type> 0x00 <bytes>` (ValueToPy reads
// it back).
Value SerdeLeaf(nb::handle object, const Serde& serde);
// A str as a text Value; one that is not UTF-8 (lone surrogates) as a
// SerdeLeaf, kept exactly.
Value StrLeaf(nb::handle str, const Serde& serde);
// A Python int that fits int64, or nullopt with the Python error
// cleared and *overflow (when given) > 0 above int64's range, < 0 below it.
std::optional<int64_t> Int64Of(PyObject* integer, int* overflow = nullptr);

CheckpointConfig ConfigFromPy(nb::handle config);
std::string IdFromPy(nb::handle id, const char* field);
std::vector<std::string> IdsFromPy(nb::handle ids, const char* field);
TypedValue Dump(const Serde& serde, nb::handle value);
ChannelVersions VersionsFromPy(nb::handle versions, const char* field);
Checkpoint CheckpointFromPy(nb::handle checkpoint, nb::handle new_versions,
                            const Serde& serde);
std::vector<ChannelWrite> WritesFromPy(nb::handle writes, const Serde& serde);

// Metadata in the form the engine compares: Python-equal values become equal
// Values. None -> null, bool -> int 0/1, an integral finite float -> int,
// other floats -> double, str, bytes, list and tuple -> array, dict with str
// keys -> map; anything else (other objects, ints beyond int64, dicts with
// other keys) -> a serde ext leaf. When a bool or float was turned into an
// int, `*lossy` is set (the caller then keeps the exact metadata aside).
// Dicts, lists and tuples nested more than kMaxMetadataNesting (255) deep,
// the outermost counted (a cycle is, too), raise InvalidArgumentError
// "<what> nests deeper than 255 maps and arrays", the engine's message for
// such metadata; the walk never goes deeper.
Value ValueFromPy(nb::handle object, const Serde& serde, bool* lossy,
                  const char* what);
// The stored metadata: ValueFromPy of `metadata` (a dict), plus, when lossy,
// kExactMetadataKey holding serde.dumps_typed(metadata).
Value MetadataFromPy(nb::handle metadata, const Serde& serde);

// ---- C++ -> Python --------------------------------------------------------

nb::object Load(const Serde& serde, const TypedValue& value);
nb::object ValueToPy(const Value& value, const Serde& serde);
nb::object MetadataToPy(const Value& metadata, const Serde& serde);
nb::dict ConfigToPy(const std::string& thread_id, const std::string& ns,
                    const std::string& checkpoint_id);
nb::object TupleToPy(const CheckpointTuple& tuple, const Serde& serde);
nb::dict DeltaHistoryToPy(const DeltaHistory& history,
                          const std::vector<std::string>& channels,
                          const Serde& serde);

// ---- Retention (convert_retention.cc) --------------------------------------

// Retention._native()'s tuple (max_idle seconds, max_age seconds, keep_last,
// sweep_interval milliseconds, sweep_batch_threads), the first three None
// when unset. TypeError for another shape, InvalidArgumentError for a
// negative count (no size_t holds it); the values are checked by
// ValidateRetentionPolicy, not here.
RetentionPolicy PolicyFromPy(nb::handle spec);
// PolicyFromPy's policy checked by ValidateRetentionPolicy:
// InvalidArgumentError with its message (naming the field) when refused.
void ValidatePolicy(nb::handle spec);
// Microseconds since the Unix epoch (UTC). ValueError outside the engine
// clock's range (the years 1678 to 2261).
RetentionTime TimeFromPy(int64_t micros);
// {"threads_examined", "threads_emptied", "checkpoints_expired",
//  "checkpoints_hidden", "bytes"}: RetentionReport's fields.
nb::dict ReportToPy(const RetentionReport& report);

}  // namespace rockpoint::py
