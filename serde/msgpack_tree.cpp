// Strict msgpack parsing into a MsgpackTree, on msgpack-c's pull parser.
//
// msgpack::parse drives a visitor over the input with an explicit stack (no
// recursion, however deep the input). The visitor below enforces the rules
// of msgpack_tree.h as it goes and stops the parser at the first violation.
// It does what msgpack::unpack_limit does for msgpack::unpack, but bounds the
// element counts of all containers together by the input length rather than
// each one separately: a container's child nodes are reserved when it
// starts, so per-container limits would still let nested forged counts
// reserve depth x input-length nodes.
#include "serde/msgpack_tree.h"

#include <algorithm>
#include <limits>
#include <msgpack.hpp>
#include <string>
#include <utility>

namespace rockpoint::serde::internal {

class MsgpackTreeBuilder : public msgpack::null_visitor {
 public:
  MsgpackTreeBuilder(size_t input_size, MsgpackTree* tree)
      : input_size_(input_size), nodes_(tree->nodes_) {
    nodes_.reserve(std::min<size_t>(input_size, kInitialReserve) + 1);
    nodes_.emplace_back();  // the root.
  }

  bool visit_nil() { return Scalar(Value::Kind::kNull); }
  bool visit_boolean(bool v) {
    MsgpackNode* node = Slot(Value::Kind::kBool);
    if (node != nullptr) node->boolean = v;
    return node != nullptr;
  }
  bool visit_positive_integer(uint64_t v) {
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Fail("unsigned integer " + std::to_string(v) +
                  " does not fit in int64");
    }
    return visit_negative_integer(static_cast<int64_t>(v));
  }
  // msgpack-c calls this for every signed form, whatever the sign.
  bool visit_negative_integer(int64_t v) {
    MsgpackNode* node = Slot(Value::Kind::kInt);
    if (node != nullptr) node->integer = v;
    return node != nullptr;
  }
  bool visit_float32(float v) { return visit_float64(v); }
  bool visit_float64(double v) {
    MsgpackNode* node = Slot(Value::Kind::kDouble);
    if (node != nullptr) node->real = v;
    return node != nullptr;
  }
  bool visit_str(const char* data, uint32_t size) {
    return Payload(Value::Kind::kString, data, size);
  }
  bool visit_bin(const char* data, uint32_t size) {
    return Payload(Value::Kind::kBytes, data, size);
  }
  // `data` is the ext type byte followed by the payload; size counts both.
  bool visit_ext(const char* data, uint32_t size) {
    if (size < 1) return Fail("ext without a type byte");
    if (!Payload(Value::Kind::kExt, data + 1, size - 1)) return false;
    Current().ext_type = static_cast<int8_t>(data[0]);
    return true;
  }
  bool start_array(uint32_t size) {
    return StartContainer(Value::Kind::kArray, size, size);
  }
  bool start_map(uint32_t size) {
    return StartContainer(Value::Kind::kMap, size, 2 * uint64_t{size});
  }
  bool end_array() { return EndContainer(); }
  bool end_map() { return EndContainer(); }
  bool end_array_item() { return Advance(); }
  bool start_map_key() { return SetInKey(true); }
  bool end_map_key() { return Advance(); }
  bool start_map_value() { return SetInKey(false); }
  bool end_map_value() { return Advance(); }
  void parse_error(size_t /*parsed_offset*/, size_t error_offset) {
    Fail("invalid type byte at offset " + std::to_string(error_offset));
  }
  void insufficient_bytes(size_t /*parsed_offset*/, size_t /*error_offset*/) {
    Fail("truncated input (" + std::to_string(input_size_) + " bytes)");
  }

  const std::string& error() const { return error_; }
  bool complete() const { return open_.empty() && root_done_; }

 private:
  static constexpr size_t kInitialReserve = 64;

  // Where the next child of an open container goes.
  struct OpenContainer {
    size_t next;  // index of the node being filled.
    bool in_key;  // maps: that node is a key.
  };

  bool Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  size_t CurrentIndex() const { return open_.empty() ? 0 : open_.back().next; }
  MsgpackNode& Current() { return nodes_[CurrentIndex()]; }

  // The node for the next item of `kind`, or nullptr (after Fail) if a map
  // key is expected and `kind` is not a string.
  MsgpackNode* Slot(Value::Kind kind) {
    if (!open_.empty() && open_.back().in_key && kind != Value::Kind::kString) {
      Fail(std::string("map key is not a string (got ") +
           Value::KindName(kind) + ")");
      return nullptr;
    }
    if (open_.empty()) root_done_ = true;
    MsgpackNode& node = Current();
    node.kind = kind;
    return &node;
  }

  bool Scalar(Value::Kind kind) { return Slot(kind) != nullptr; }

  bool Payload(Value::Kind kind, const char* data, uint32_t size) {
    MsgpackNode* node = Slot(kind);
    if (node == nullptr) return false;
    node->data = data;
    node->size = size;
    return true;
  }

  bool StartContainer(Value::Kind kind, uint32_t size, uint64_t children) {
    if (open_.size() >= static_cast<size_t>(kMaxDepth)) {
      return Fail("nesting deeper than " + std::to_string(kMaxDepth));
    }
    claimed_children_ += children;
    if (claimed_children_ > input_size_) {
      return Fail(std::string(Value::KindName(kind)) + " of " +
                  std::to_string(size) +
                  (kind == Value::Kind::kMap ? " pairs" : " elements") +
                  " cannot fit in " + std::to_string(input_size_) + " bytes");
    }
    size_t index = CurrentIndex();
    if (Slot(kind) == nullptr) return false;
    size_t first = nodes_.size();
    nodes_.resize(first + children);  // bounded by the check above.
    nodes_[index].size = size;
    nodes_[index].first = first;
    open_.push_back(OpenContainer{first, false});
    return true;
  }

  bool EndContainer() {
    open_.pop_back();
    return true;
  }

  bool Advance() {
    ++open_.back().next;
    return true;
  }

  bool SetInKey(bool in_key) {
    open_.back().in_key = in_key;
    return true;
  }

  size_t input_size_;
  std::vector<MsgpackNode>& nodes_;
  uint64_t claimed_children_ = 0;
  std::vector<OpenContainer> open_;
  bool root_done_ = false;
  std::string error_;
};

Result<MsgpackTree> ParseMsgpack(std::string_view bytes) {
  MsgpackTree tree;
  MsgpackTreeBuilder builder(bytes.size(), &tree);
  size_t offset = 0;
  bool parsed = false;
  try {
    parsed = msgpack::parse(bytes.data(), bytes.size(), offset, builder);
  } catch (const std::exception& e) {
    // msgpack-c reports some malformed lengths by throwing; bad_alloc too.
    return Status::Corruption(std::string("msgpack: ") + e.what());
  } catch (...) {
    return Status::Corruption("msgpack: undecodable input");
  }
  if (!parsed || !builder.complete()) {
    return Status::Corruption(
        "msgpack: " + (builder.error().empty() ? std::string("malformed input")
                                               : builder.error()));
  }
  if (offset != bytes.size()) {
    return Status::Corruption(
        "msgpack: " + std::to_string(bytes.size() - offset) +
        " trailing bytes after the value");
  }
  return tree;
}

}  // namespace rockpoint::serde::internal
