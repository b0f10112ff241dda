// Typed readers of stored-record fields (record_fields.h).
#include "serde/record_fields.h"

#include <utility>

namespace rockpoint::serde::internal {
namespace {

std::string Concat(std::string_view a, std::string_view b) {
  std::string out(a);
  out.append(b);
  return out;
}

Status DuplicateKey(std::string_view record, std::string_view field,
                    std::string_view key) {
  return Status::Corruption(Concat(record, ": ") + std::string(field) +
                            " has a duplicate key " + Value(key).DebugString());
}

}  // namespace

std::string Subfield(std::string_view field, std::string_view key) {
  return Concat(field, "[") + Value(key).DebugString() + "]";
}

Status Mistyped(std::string_view record, std::string_view field,
                std::string_view expected, const MsgpackNode& got) {
  return Status::Corruption(Concat(record, ": ") + std::string(field) +
                            " must be " + std::string(expected) + " (got " +
                            Value::KindName(got.kind) + ")");
}

Result<MsgpackTree> ParseRecordPart(std::string_view bytes,
                                    std::string_view record,
                                    std::string_view part) {
  Result<MsgpackTree> tree = ParseMsgpack(bytes);
  if (!tree.ok()) {
    return Status::Corruption(Concat(record, ": ") + std::string(part) + ": " +
                              tree.status().message());
  }
  return tree;
}

Status ExpectFields(const MsgpackNode& node, size_t count,
                    std::string_view record, std::string_view field) {
  if (node.kind == Value::Kind::kArray && node.size == count) {
    return Status::OK();
  }
  std::string got = node.kind == Value::Kind::kArray
                        ? std::to_string(node.size) + " fields"
                        : Value::KindName(node.kind);
  return Status::Corruption(Concat(record, ": ") + std::string(field) +
                            " must be an array of " + std::to_string(count) +
                            " fields (got " + got + ")");
}

Status ReadInt(const MsgpackNode& node, std::string_view record,
               std::string_view field, int64_t* out) {
  if (node.kind != Value::Kind::kInt) {
    return Mistyped(record, field, "an int", node);
  }
  *out = node.integer;
  return Status::OK();
}

Status ReadBool(const MsgpackNode& node, std::string_view record,
                std::string_view field, bool* out) {
  if (node.kind != Value::Kind::kBool) {
    return Mistyped(record, field, "a bool", node);
  }
  *out = node.boolean;
  return Status::OK();
}

Status ReadString(const MsgpackNode& node, std::string_view record,
                  std::string_view field, std::string* out) {
  if (node.kind != Value::Kind::kString) {
    return Mistyped(record, field, "a string", node);
  }
  out->assign(node.bytes());
  return Status::OK();
}

Status ReadOptionalString(const MsgpackNode& node, std::string_view record,
                          std::string_view field,
                          std::optional<std::string>* out) {
  if (node.kind == Value::Kind::kNull) {
    out->reset();
  } else if (node.kind == Value::Kind::kString) {
    out->emplace(node.bytes());
  } else {
    return Mistyped(record, field, "a string or nil", node);
  }
  return Status::OK();
}

Status ReadStringList(const MsgpackTree& tree, const MsgpackNode& node,
                      std::string_view record, std::string_view field,
                      std::vector<std::string>* out) {
  if (node.kind != Value::Kind::kArray) {
    return Mistyped(record, field, "an array of strings", node);
  }
  out->clear();
  out->reserve(node.size);
  for (size_t i = 0; i < node.size; ++i) {
    const MsgpackNode& element = tree.element(node, i);
    if (element.kind != Value::Kind::kString) {
      return Mistyped(record, Concat(field, "[]"), "a string", element);
    }
    out->emplace_back(element.bytes());
  }
  return Status::OK();
}

Status ReadVersionMap(const MsgpackTree& tree, const MsgpackNode& node,
                      std::string_view record, std::string_view field,
                      std::map<std::string, ChannelVersion>* out) {
  if (node.kind != Value::Kind::kMap) {
    return Mistyped(record, field, "a map", node);
  }
  out->clear();
  for (size_t i = 0; i < node.size; ++i) {
    std::string_view channel = tree.key(node, i).bytes();
    const MsgpackNode& version = tree.value(node, i);
    ChannelVersion decoded;
    if (version.kind == Value::Kind::kInt) {
      decoded = version.integer;
    } else if (version.kind == Value::Kind::kString) {
      decoded = std::string(version.bytes());
    } else {
      return Mistyped(record, Subfield(field, channel), "an int or a string",
                      version);
    }
    size_t before = out->size();
    out->emplace_hint(out->end(), channel, std::move(decoded));
    if (out->size() == before) return DuplicateKey(record, field, channel);
  }
  return Status::OK();
}

Status ReadTypedValue(const MsgpackTree& tree, const MsgpackNode& node,
                      std::string_view record, std::string_view field,
                      TypedValue* out) {
  RP_RETURN_IF_ERROR(ExpectFields(node, 2, record, field));
  const MsgpackNode& type = tree.element(node, 0);
  if (type.kind != Value::Kind::kString) {
    return Mistyped(record, Concat(field, ".type"), "a string", type);
  }
  out->type.assign(type.bytes());
  const MsgpackNode& bytes = tree.element(node, 1);
  if (bytes.kind != Value::Kind::kBytes) {
    return Mistyped(record, Concat(field, ".bytes"), "bytes", bytes);
  }
  out->bytes.assign(bytes.bytes());
  return Status::OK();
}

Status ReadValueMap(const MsgpackTree& tree, const MsgpackNode& node,
                    std::string_view record, std::string_view field,
                    Value* out) {
  if (node.kind != Value::Kind::kMap) {
    return Mistyped(record, field, "a map", node);
  }
  Status status = NodeToValue(tree, node, out);
  if (!status.ok()) {
    return Status::Corruption(Concat(record, ": ") + std::string(field) + ": " +
                              status.message());
  }
  return Status::OK();
}

}  // namespace rockpoint::serde::internal
