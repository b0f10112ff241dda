// Typed readers of stored-record fields from a MsgpackTree, private to
// serde/. Each checks the msgpack type of one field (and of everything in
// it) and copies it out, or returns
//   Corruption("<record>: <field> must be <expected> (got <kind>)")
// naming the record kind (e.g. "checkpoint record") and the field path
// (e.g. header.channel_versions["a"]). On error *out is unspecified; callers
// discard the whole record.
//
// REQUIRES: `node` belongs to `tree`.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/status.h"
#include "rockpoint/typed_value.h"
#include "rockpoint/value.h"
#include "serde/msgpack_tree.h"

namespace rockpoint::serde::internal {

// `field[key]` with the key quoted and escaped, for messages.
std::string Subfield(std::string_view field, std::string_view key);

Status Mistyped(std::string_view record, std::string_view field,
                std::string_view expected, const MsgpackNode& got);

// Parses one msgpack part of a record; errors read
// "<record>: <part>: msgpack: ...".
Result<MsgpackTree> ParseRecordPart(std::string_view bytes,
                                    std::string_view record,
                                    std::string_view part);

// An array of exactly `count` fields.
Status ExpectFields(const MsgpackNode& node, size_t count,
                    std::string_view record, std::string_view field);

Status ReadInt(const MsgpackNode& node, std::string_view record,
               std::string_view field, int64_t* out);
Status ReadBool(const MsgpackNode& node, std::string_view record,
                std::string_view field, bool* out);
Status ReadString(const MsgpackNode& node, std::string_view record,
                  std::string_view field, std::string* out);
// A string or nil (nullopt).
Status ReadOptionalString(const MsgpackNode& node, std::string_view record,
                          std::string_view field,
                          std::optional<std::string>* out);
// An array of strings.
Status ReadStringList(const MsgpackTree& tree, const MsgpackNode& node,
                      std::string_view record, std::string_view field,
                      std::vector<std::string>* out);
// A map of string -> (int | string), keys unique.
Status ReadVersionMap(const MsgpackTree& tree, const MsgpackNode& node,
                      std::string_view record, std::string_view field,
                      std::map<std::string, ChannelVersion>* out);
// array(2)[type: str, bytes: bin].
Status ReadTypedValue(const MsgpackTree& tree, const MsgpackNode& node,
                      std::string_view record, std::string_view field,
                      TypedValue* out);
// A map with any Values, keys unique.
Status ReadValueMap(const MsgpackTree& tree, const MsgpackNode& node,
                    std::string_view record, std::string_view field,
                    Value* out);

}  // namespace rockpoint::serde::internal
