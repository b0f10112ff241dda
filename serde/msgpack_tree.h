// MsgpackTree: one strictly parsed msgpack object as a flat tree of nodes,
// private to serde/. The Value codec and the record decoders read it, so a
// record is type-checked and copied out once, without an intermediate Value.
//
// Parsing rules (serde/FORMAT.md): exactly one object, no trailing bytes,
// map keys are str, nesting at most kMaxDepth, unsigned ints at most
// INT64_MAX, float32 widened to double, and the element counts claimed by
// all containers together at most the input length (each element takes at
// least a byte), so a forged count cannot make the parser allocate more than
// a small multiple of the input. Anything else is Corruption.
//
// Nodes of kind kString, kBytes and kExt point into the parsed bytes.
// REQUIRES: the parsed bytes outlive the tree.
//
// Thread-safety: a parsed tree is immutable; concurrent reads are safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "rockpoint/status.h"
#include "rockpoint/value.h"  // kMaxDepth

namespace rockpoint::serde::internal {

struct MsgpackNode {
  // The Value kind this node decodes to (map keys are kString).
  Value::Kind kind = Value::Kind::kNull;
  int8_t ext_type = 0;  // kExt only.
  // kString/kBytes/kExt: payload bytes; kArray: elements; kMap: pairs.
  uint32_t size = 0;
  union {
    bool boolean;
    int64_t integer = 0;
    double real;
    const char* data;  // kString/kBytes/kExt payload.
    size_t first;      // kArray/kMap: index of the first child node.
  };

  std::string_view bytes() const { return {data, size}; }
};

class MsgpackTree {
 public:
  const MsgpackNode& root() const { return nodes_[0]; }
  // REQUIRES: `array` is a kArray node of this tree, i < array.size.
  const MsgpackNode& element(const MsgpackNode& array, size_t i) const {
    return nodes_[array.first + i];
  }
  // REQUIRES: `map` is a kMap node of this tree, i < map.size. Keys are
  // kString nodes, in input order (not checked for order or uniqueness).
  const MsgpackNode& key(const MsgpackNode& map, size_t i) const {
    return nodes_[map.first + 2 * i];
  }
  const MsgpackNode& value(const MsgpackNode& map, size_t i) const {
    return nodes_[map.first + 2 * i + 1];
  }

 private:
  friend class MsgpackTreeBuilder;
  std::vector<MsgpackNode> nodes_;  // nodes_[0] is the root.
};

// Parses `bytes` as exactly one msgpack object. Errors are Corruption with a
// message starting "msgpack: ".
Result<MsgpackTree> ParseMsgpack(std::string_view bytes);

// Builds *out from `node` of `tree` (recursing at most kMaxDepth deep, as
// the parser guaranteed). Corruption on a duplicate map key.
// Implemented in msgpack_codec.cpp.
Status NodeToValue(const MsgpackTree& tree, const MsgpackNode& node,
                   Value* out);

}  // namespace rockpoint::serde::internal
