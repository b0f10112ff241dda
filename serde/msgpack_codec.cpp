// Value <-> msgpack, on msgpack-c (msgpack-cxx 4.1, MSGPACK_NO_BOOST).
//
// Grammar of an encoded Value (msgpack spec type bytes; full text in
// serde/FORMAT.md):
//
//   value  := nil                        ; null    c0
//           | false | true               ; bool    c2 | c3
//           | int                        ; int64, smallest of positive
//                                        ; fixint, u8-u64, negative fixint,
//                                        ; i8-i64 that holds it
//           | float64                    ; double  cb + 8 bytes big-endian
//           | str                        ; string  a0-bf | d9 | da | db
//           | bin                        ; bytes   c4 | c5 | c6
//           | array(n) value{n}          ; array   90-9f | dc | dd
//           | map(n) (str value){n}      ; map     80-8f | de | df,
//                                        ;         keys in ascending order
//           | ext(tag, data)             ; Ext     d4-d8 | c7 | c8 | c9
//
// Encoding writes through msgpack_writer.h, depth first with an explicit
// stack (no recursion at any depth); decoding parses strictly into a
// MsgpackTree (msgpack_tree.h) and builds the Value from it. Accepted on
// input beyond the canonical forms: any integer width, float32 (widened),
// str8 and wider forms for short strings, map keys in any order. Rejected:
// duplicate map keys, besides everything the tree parser rejects.
#include "rockpoint/msgpack_codec.h"

#include <utility>
#include <vector>

#include "serde/msgpack_tree.h"
#include "serde/msgpack_writer.h"

namespace rockpoint::serde {
namespace internal {

Status NodeToValue(const MsgpackTree& tree, const MsgpackNode& node,
                   Value* out) {
  switch (node.kind) {
    case Value::Kind::kNull:
      *out = Value();
      return Status::OK();
    case Value::Kind::kBool:
      *out = Value(node.boolean);
      return Status::OK();
    case Value::Kind::kInt:
      *out = Value(node.integer);
      return Status::OK();
    case Value::Kind::kDouble:
      *out = Value(node.real);
      return Status::OK();
    case Value::Kind::kString:
      *out = Value(std::string(node.bytes()));
      return Status::OK();
    case Value::Kind::kBytes:
      *out = Value(Bytes{std::string(node.bytes())});
      return Status::OK();
    case Value::Kind::kExt:
      *out = Value(Ext{node.ext_type, std::string(node.bytes())});
      return Status::OK();
    case Value::Kind::kArray: {
      Value::Array array(node.size);
      for (size_t i = 0; i < node.size; ++i) {
        RP_RETURN_IF_ERROR(NodeToValue(tree, tree.element(node, i), &array[i]));
      }
      *out = Value(std::move(array));
      return Status::OK();
    }
    case Value::Kind::kMap: {
      Value::Map map;
      for (size_t i = 0; i < node.size; ++i) {
        std::string_view key = tree.key(node, i).bytes();
        // Canonical input has ascending keys: the end hint makes this O(1).
        size_t before = map.size();
        auto it = map.emplace_hint(map.end(), key, Value());
        if (map.size() == before) {
          return Status::Corruption("msgpack: duplicate map key " +
                                    Value(key).DebugString());
        }
        RP_RETURN_IF_ERROR(NodeToValue(tree, tree.value(node, i), &it->second));
      }
      *out = Value(std::move(map));
      return Status::OK();
    }
  }
  return Status::Corruption("msgpack: unknown node kind");
}

}  // namespace internal

namespace {

// Appends `value` if it is a scalar, else its container header.
void AppendItem(const Value& value, std::string* out) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      internal::AppendNil(out);
      return;
    case Value::Kind::kBool:
      internal::AppendBool(value.as_bool(), out);
      return;
    case Value::Kind::kInt:
      internal::AppendInt(value.as_int(), out);
      return;
    case Value::Kind::kDouble:
      internal::AppendFloat64(value.as_double(), out);
      return;
    case Value::Kind::kString:
      internal::AppendStr(value.as_string(), out);
      return;
    case Value::Kind::kBytes:
      internal::AppendBin(value.as_bytes().data, out);
      return;
    case Value::Kind::kArray:
      internal::AppendArrayHeader(value.as_array().size(), out);
      return;
    case Value::Kind::kMap:
      internal::AppendMapHeader(value.as_map().size(), out);
      return;
    case Value::Kind::kExt:
      internal::AppendExt(value.as_ext().type, value.as_ext().data, out);
      return;
  }
}

// A container whose header is written: where its next element is.
struct OpenContainer {
  const Value* container;
  size_t next_index = 0;                   // arrays.
  Value::Map::const_iterator next_pair{};  // maps.
};

// The next element of `open` to write (after its key, for a map), or
// nullptr when it is complete.
const Value* NextElement(OpenContainer& open, std::string* out) {
  if (open.container->is_array()) {
    const Value::Array& array = open.container->as_array();
    return open.next_index < array.size() ? &array[open.next_index++] : nullptr;
  }
  if (open.next_pair == open.container->as_map().end()) return nullptr;
  const auto& [key, element] = *open.next_pair++;
  internal::AppendStr(key, out);
  return &element;
}

}  // namespace

// Depth first with an explicit stack of open containers (no recursion).
void AppendMsgpack(const Value& value, std::string* out) {
  std::vector<OpenContainer> open;
  const Value* next = &value;
  while (true) {
    if (next != nullptr) {
      AppendItem(*next, out);
      if (next->is_array()) {
        open.push_back({next});
      } else if (next->is_map()) {
        open.push_back({next, 0, next->as_map().begin()});
      }
    }
    if (open.empty()) return;
    next = NextElement(open.back(), out);
    if (next == nullptr) open.pop_back();
  }
}

std::string EncodeMsgpack(const Value& value) {
  std::string out;
  AppendMsgpack(value, &out);
  return out;
}

Result<Value> DecodeMsgpack(std::string_view bytes) {
  RP_ASSIGN_OR_RETURN(internal::MsgpackTree tree,
                      internal::ParseMsgpack(bytes));
  Value value;
  RP_RETURN_IF_ERROR(internal::NodeToValue(tree, tree.root(), &value));
  return value;
}

}  // namespace rockpoint::serde
