// Value: the dynamic value rockpoint's own runtime and tools work with.
//
// A Value is one of null, bool, int64, double, text string, byte string,
// array, map (text keys, kept sorted) or a tagged extension (an int8 tag and
// opaque bytes, e.g. a delta-channel snapshot wrapping an encoded Value).
// It is a plain value type: copyable, comparable, no shared state.
//
// Nesting limit. A Value's depth is the number of maps and arrays on its
// deepest path: 0 for a scalar, 1 for [] or {}, 2 for [[]]. rockpoint reads
// and stores Values at most kMaxDepth deep:
//   - every conversion into a Value refuses deeper input before building
//     it: msgpack decoding (Corruption), the CLI's JSON and the Python and
//     Node bindings (InvalidArgument, or Corruption for a stored file);
//   - whatever stores a Value refuses a deeper one with InvalidArgument
//     (CheckNesting), so what is stored reads back. Metadata, which its
//     stored record wraps in one more level, nests at most
//     kMaxMetadataNesting = kMaxDepth - 1 (checkpointer.h);
//   - a Value's own copy, move, comparison and destruction, and
//     EncodeMsgpack, use no recursion, so a deeper Value built in code is
//     safe to hold and to pass to a call that refuses it. DebugString shows
//     kMaxDepth levels and elides the rest.
//
// Thread-safety: none needed; distinct Values are independent.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rockpoint/status.h"

namespace rockpoint::serde {

// The deepest Value rockpoint reads or stores (see above).
inline constexpr int kMaxDepth = 256;

class Value;

// A byte string, kept distinct from a text string.
struct Bytes {
  std::string data;
  friend bool operator==(const Bytes&, const Bytes&) = default;
};

// A tagged extension value (msgpack "ext").
struct Ext {
  int8_t type = 0;
  std::string data;
  friend bool operator==(const Ext&, const Ext&) = default;
};

class Value {
 public:
  // Persisted nowhere (the msgpack encoding carries the kind); order is the
  // order of the variant below.
  enum class Kind : uint8_t {
    kNull,
    kBool,
    kInt,
    kDouble,
    kString,
    kBytes,
    kArray,
    kMap,
    kExt
  };
  using Array = std::vector<Value>;
  using Map = std::map<std::string, Value, std::less<>>;

  Value() = default;  // null
  Value(std::nullptr_t) {}
  Value(bool b) : data_(b) {}
  Value(int i) : data_(static_cast<int64_t>(i)) {}
  Value(int64_t i) : data_(i) {}
  Value(double d) : data_(d) {}
  Value(const char* s) : data_(std::string(s)) {}
  Value(std::string s) : data_(std::move(s)) {}
  Value(std::string_view s) : data_(std::string(s)) {}
  Value(Bytes b) : data_(std::move(b)) {}
  Value(Array a) : data_(std::move(a)) {}
  Value(Map m) : data_(std::move(m)) {}
  Value(Ext e) : data_(std::move(e)) {}

  // Copies, moves and destruction walk nested values with an explicit stack
  // (no recursion, whatever the depth). Assigning a Value one of its own
  // parts is allowed.
  Value(const Value& other);
  Value(Value&& other) noexcept : data_(std::move(other.data_)) {}
  Value& operator=(const Value& other);
  Value& operator=(Value&& other) noexcept;
  ~Value();

  static Value MakeArray() { return Value(Array{}); }
  static Value MakeMap() { return Value(Map{}); }

  Kind kind() const { return static_cast<Kind>(data_.index()); }
  bool is_null() const { return kind() == Kind::kNull; }
  bool is_bool() const { return kind() == Kind::kBool; }
  bool is_int() const { return kind() == Kind::kInt; }
  bool is_double() const { return kind() == Kind::kDouble; }
  bool is_string() const { return kind() == Kind::kString; }
  bool is_bytes() const { return kind() == Kind::kBytes; }
  bool is_array() const { return kind() == Kind::kArray; }
  bool is_map() const { return kind() == Kind::kMap; }
  bool is_ext() const { return kind() == Kind::kExt; }

  // Accessors. REQUIRES: the Value holds that kind.
  bool as_bool() const { return std::get<bool>(data_); }
  int64_t as_int() const { return std::get<int64_t>(data_); }
  double as_double() const { return std::get<double>(data_); }
  const std::string& as_string() const { return std::get<std::string>(data_); }
  const Bytes& as_bytes() const { return std::get<Bytes>(data_); }
  const Array& as_array() const { return std::get<Array>(data_); }
  Array& as_array() { return std::get<Array>(data_); }
  const Map& as_map() const { return std::get<Map>(data_); }
  Map& as_map() { return std::get<Map>(data_); }
  const Ext& as_ext() const { return std::get<Ext>(data_); }

  // Map lookup: the value under `key`, or nullptr if this is not a map or the
  // key is absent.
  const Value* Find(std::string_view key) const;

  // A short name of the kind ("null", "bool", "int", ...), for messages.
  static const char* KindName(Kind kind);

  // A compact JSON-like rendering for humans and error messages (bytes as
  // base64 "b64:..." strings, ext as {"$ext": tag, "b64": ...}). A map or
  // array below kMaxDepth levels renders as {...} or [...].
  std::string DebugString() const;

  // Same kind and equal contents, element by element (doubles by ==, so a
  // NaN anywhere makes a Value unequal to itself). No recursion.
  friend bool operator==(const Value& a, const Value& b);

 private:
  using Data = std::variant<std::monostate, bool, int64_t, double, std::string,
                            Bytes, Array, Map, Ext>;
  struct CopyTask;
  struct CompareTask;

  // Copies `from` into this null Value one level deep; nested non-empty
  // containers are left null and queued on `pending`.
  void CopyLevel(const Value& from, std::vector<CopyTask>* pending);
  // Moves the non-empty containers directly inside this Value to `pending`.
  void TakeNested(std::vector<Value>* pending);
  bool HasNested() const;

  Data data_;
};

// The depth of `value` (see the file comment), counted no further than
// `cap` + 1 levels: NestingDepth(v, n) > n says whether v nests deeper than
// n, in time bounded by the nodes of its first n + 1 levels. No recursion.
int NestingDepth(const Value& value, int cap = kMaxDepth);

// OK if `value` nests at most `max_depth` deep, else InvalidArgument
// "<what> nests deeper than <max_depth> maps and arrays".
Status CheckNesting(const Value& value, std::string_view what,
                    int max_depth = kMaxDepth);

}  // namespace rockpoint::serde
