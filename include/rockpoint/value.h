// Value: the dynamic value rockpoint's own runtime and tools work with.
//
// A Value is one of null, bool, int64, double, text string, byte string,
// array, map (text keys, kept sorted) or a tagged extension (an int8 tag and
// opaque bytes, e.g. a delta-channel snapshot wrapping an encoded Value).
// It is a plain value type: copyable, comparable, no shared state.
//
// Thread-safety: none needed; distinct Values are independent.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rockpoint::serde {

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
  // base64 "b64:..." strings, ext as {"$ext": tag, "b64": ...}).
  std::string DebugString() const;

  friend bool operator==(const Value& a, const Value& b) {
    return a.data_ == b.data_;
  }

 private:
  std::variant<std::monostate, bool, int64_t, double, std::string, Bytes, Array,
               Map, Ext>
      data_;
};

}  // namespace rockpoint::serde
