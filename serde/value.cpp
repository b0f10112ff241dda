// Value: copies, moves, comparison and destruction without recursion, map
// lookup, kind names, nesting depth and the human-readable rendering.
//
// The special members work level by level: a container is handled one level
// deep, and its nested non-empty containers are queued on an explicit stack
// (a std::vector) instead of a call stack, so a Value of any depth is safe.
// A container whose children are all scalars or empty needs no queue.
//
// DebugString grammar (JSON, plus three conventions):
//   null | true | false | <int> | <double> | "<string>" | [..] | {"k":v,..}
//   - a double always shows a '.', an exponent, NaN, Infinity or -Infinity,
//     so 1.0 renders as 1.0, never as the int 1; -0.0 renders as -0.0;
//   - bytes render as the string "b64:<standard base64 with padding>";
//   - an ext renders as {"$ext":<tag>,"b64":"<base64 of its data>"}.
// Strings are JSON-escaped; a byte that is not part of valid UTF-8 renders as
// \xNN (the one non-JSON escape).
#include "rockpoint/value.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <utility>

namespace rockpoint::serde {
namespace {

bool IsNonEmptyContainer(const Value& value) {
  return (value.is_array() && !value.as_array().empty()) ||
         (value.is_map() && !value.as_map().empty());
}

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void AppendBase64(std::string_view data, std::string* out) {
  size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    uint32_t n = (static_cast<uint8_t>(data[i]) << 16) |
                 (static_cast<uint8_t>(data[i + 1]) << 8) |
                 static_cast<uint8_t>(data[i + 2]);
    out->push_back(kBase64Alphabet[(n >> 18) & 63]);
    out->push_back(kBase64Alphabet[(n >> 12) & 63]);
    out->push_back(kBase64Alphabet[(n >> 6) & 63]);
    out->push_back(kBase64Alphabet[n & 63]);
  }
  size_t rest = data.size() - i;
  if (rest == 0) return;
  uint32_t n = static_cast<uint8_t>(data[i]) << 16;
  if (rest == 2) n |= static_cast<uint8_t>(data[i + 1]) << 8;
  out->push_back(kBase64Alphabet[(n >> 18) & 63]);
  out->push_back(kBase64Alphabet[(n >> 12) & 63]);
  out->push_back(rest == 2 ? kBase64Alphabet[(n >> 6) & 63] : '=');
  out->push_back('=');
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 if none.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  uint8_t lead = byte(i);
  size_t length;
  uint8_t min_second = 0x80, max_second = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) min_second = 0xa0;  // no overlong forms.
    if (lead == 0xed) max_second = 0x9f;  // no surrogates.
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) min_second = 0x90;  // no overlong forms.
    if (lead == 0xf4) max_second = 0x8f;  // nothing above U+10FFFF.
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  if (byte(i + 1) < min_second || byte(i + 1) > max_second) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return 0;
  }
  return length;
}

void AppendQuoted(std::string_view s, std::string* out) {
  out->push_back('"');
  char escape[8];
  for (size_t i = 0; i < s.size();) {
    uint8_t c = static_cast<uint8_t>(s[i]);
    if (c >= 0x80) {
      size_t length = Utf8SequenceLength(s, i);
      if (length == 0) {
        std::snprintf(escape, sizeof(escape), "\\x%02x", c);
        out->append(escape);
        ++i;
      } else {
        out->append(s.substr(i, length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          std::snprintf(escape, sizeof(escape), "\\u%04x", c);
          out->append(escape);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

void AppendDouble(double d, std::string* out) {
  if (std::isnan(d)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(d)) {
    out->append(d > 0 ? "Infinity" : "-Infinity");
    return;
  }
  char buf[64];
  // Shortest representation that reads back as the same double.
  auto result = std::to_chars(buf, buf + sizeof(buf), d);
  std::string_view text(buf, result.ptr - buf);
  out->append(text);
  if (text.find_first_of(".e") == std::string_view::npos) out->append(".0");
}

// Renders `value`, whose enclosing maps and arrays number `depth`; a
// container that would be level kMaxDepth + 1 renders as [...] or {...}.
void AppendDebug(const Value& value, int depth, std::string* out) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      out->append("null");
      return;
    case Value::Kind::kBool:
      out->append(value.as_bool() ? "true" : "false");
      return;
    case Value::Kind::kInt:
      out->append(std::to_string(value.as_int()));
      return;
    case Value::Kind::kDouble:
      AppendDouble(value.as_double(), out);
      return;
    case Value::Kind::kString:
      AppendQuoted(value.as_string(), out);
      return;
    case Value::Kind::kBytes:
      out->append("\"b64:");
      AppendBase64(value.as_bytes().data, out);
      out->push_back('"');
      return;
    case Value::Kind::kArray: {
      if (depth >= kMaxDepth) {
        out->append("[...]");
        return;
      }
      out->push_back('[');
      bool first = true;
      for (const Value& element : value.as_array()) {
        if (!first) out->push_back(',');
        first = false;
        AppendDebug(element, depth + 1, out);
      }
      out->push_back(']');
      return;
    }
    case Value::Kind::kMap: {
      if (depth >= kMaxDepth) {
        out->append("{...}");
        return;
      }
      out->push_back('{');
      bool first = true;
      for (const auto& [key, element] : value.as_map()) {
        if (!first) out->push_back(',');
        first = false;
        AppendQuoted(key, out);
        out->push_back(':');
        AppendDebug(element, depth + 1, out);
      }
      out->push_back('}');
      return;
    }
    case Value::Kind::kExt:
      out->append("{\"$ext\":");
      out->append(std::to_string(value.as_ext().type));
      out->append(",\"b64\":\"");
      AppendBase64(value.as_ext().data, out);
      out->append("\"}");
      return;
  }
}

}  // namespace

struct Value::CopyTask {
  const Value* from;
  Value* to;
};

struct Value::CompareTask {
  const Value* a;
  const Value* b;
};

void Value::CopyLevel(const Value& from, std::vector<CopyTask>* pending) {
  // Scalars and empty containers copy without recursion.
  if (!IsNonEmptyContainer(from)) {
    data_ = from.data_;
    return;
  }
  if (from.is_array()) {
    const Array& source = from.as_array();
    Array& target = data_.emplace<Array>(source.size());
    for (size_t i = 0; i < source.size(); ++i) {
      if (IsNonEmptyContainer(source[i])) {
        pending->push_back({&source[i], &target[i]});
      } else {
        target[i].data_ = source[i].data_;
      }
    }
    return;
  }
  Map& target = data_.emplace<Map>();
  for (const auto& [key, child] : from.as_map()) {
    auto it = target.emplace_hint(target.end(), key, Value());
    if (IsNonEmptyContainer(child)) {
      pending->push_back({&child, &it->second});
    } else {
      it->second.data_ = child.data_;
    }
  }
}

Value::Value(const Value& other) {
  std::vector<CopyTask> pending;
  CopyLevel(other, &pending);
  // Queued targets are elements of containers already sized, so the
  // pointers stay valid.
  while (!pending.empty()) {
    CopyTask task = pending.back();
    pending.pop_back();
    task.to->CopyLevel(*task.from, &pending);
  }
}

Value& Value::operator=(const Value& other) {
  // Copying first makes `other` being a part of this Value harmless.
  Value copy(other);
  data_.swap(copy.data_);
  return *this;
}

Value& Value::operator=(Value&& other) noexcept {
  // `other` may be a part of this Value: take it out before the old
  // contents (which `taken` ends up with) are destroyed.
  Value taken(std::move(other));
  data_.swap(taken.data_);
  return *this;
}

bool Value::HasNested() const {
  if (is_array()) {
    return std::any_of(as_array().begin(), as_array().end(),
                       IsNonEmptyContainer);
  }
  if (is_map()) {
    return std::any_of(as_map().begin(), as_map().end(), [](const auto& item) {
      return IsNonEmptyContainer(item.second);
    });
  }
  return false;
}

void Value::TakeNested(std::vector<Value>* pending) {
  if (is_array()) {
    for (Value& child : as_array()) {
      if (IsNonEmptyContainer(child)) pending->push_back(std::move(child));
    }
  } else if (is_map()) {
    for (auto& [key, child] : as_map()) {
      if (IsNonEmptyContainer(child)) pending->push_back(std::move(child));
    }
  }
}

Value::~Value() {
  if (!HasNested()) return;
  // Each Value taken from `pending` gives up its nested containers before
  // it is destroyed, so no destructor below this one finds any. If memory
  // runs out, what is left is destroyed the ordinary (recursive) way.
  try {
    std::vector<Value> pending;
    TakeNested(&pending);
    while (!pending.empty()) {
      Value last = std::move(pending.back());
      pending.pop_back();
      last.TakeNested(&pending);
    }
  } catch (...) {
  }
}

bool operator==(const Value& a, const Value& b) {
  std::vector<Value::CompareTask> pending;
  // Compares x and y at once, or (both non-empty containers) queues them.
  const auto compare = [&pending](const Value& x, const Value& y) {
    if (!IsNonEmptyContainer(x) || !IsNonEmptyContainer(y)) {
      return x.data_ == y.data_;  // at most one level of empty containers.
    }
    pending.push_back({&x, &y});
    return true;
  };
  // Compares one level of x and y, both non-empty containers.
  const auto level = [&compare](const Value& x, const Value& y) {
    if (x.kind() != y.kind()) return false;
    if (x.is_array()) {
      const Value::Array& xs = x.as_array();
      const Value::Array& ys = y.as_array();
      if (xs.size() != ys.size()) return false;
      for (size_t i = 0; i < xs.size(); ++i) {
        if (!compare(xs[i], ys[i])) return false;
      }
      return true;
    }
    const Value::Map& xs = x.as_map();
    const Value::Map& ys = y.as_map();
    if (xs.size() != ys.size()) return false;
    for (auto xi = xs.begin(), yi = ys.begin(); xi != xs.end(); ++xi, ++yi) {
      if (xi->first != yi->first || !compare(xi->second, yi->second)) {
        return false;
      }
    }
    return true;
  };
  if (!compare(a, b)) return false;
  while (!pending.empty()) {
    Value::CompareTask task = pending.back();
    pending.pop_back();
    if (!level(*task.a, *task.b)) return false;
  }
  return true;
}

const Value* Value::Find(std::string_view key) const {
  if (!is_map()) return nullptr;
  const Map& map = as_map();
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

const char* Value::KindName(Kind kind) {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "bool";
    case Kind::kInt:
      return "int";
    case Kind::kDouble:
      return "double";
    case Kind::kString:
      return "string";
    case Kind::kBytes:
      return "bytes";
    case Kind::kArray:
      return "array";
    case Kind::kMap:
      return "map";
    case Kind::kExt:
      return "ext";
  }
  return "unknown";
}

std::string Value::DebugString() const {
  std::string out;
  AppendDebug(*this, 0, &out);
  return out;
}

int NestingDepth(const Value& value, int cap) {
  if (!value.is_array() && !value.is_map()) return 0;
  int deepest = 1;
  // Non-empty containers still to visit, with their levels; depth first.
  std::vector<std::pair<const Value*, int>> pending;
  const Value* node = &value;
  int level = 1;
  while (level <= cap) {
    const auto visit = [&](const Value& child) {
      if (IsNonEmptyContainer(child)) {
        pending.emplace_back(&child, level + 1);
      } else if (child.is_array() || child.is_map()) {
        deepest = std::max(deepest, level + 1);
      }
    };
    if (node->is_array()) {
      std::for_each(node->as_array().begin(), node->as_array().end(), visit);
    } else {
      for (const auto& [key, child] : node->as_map()) visit(child);
    }
    if (pending.empty()) break;
    std::tie(node, level) = pending.back();
    pending.pop_back();
    deepest = std::max(deepest, level);
  }
  return deepest;
}

Status CheckNesting(const Value& value, std::string_view what, int max_depth) {
  if (NestingDepth(value, max_depth) <= max_depth) return Status::OK();
  return Status::InvalidArgument(std::string(what) + " nests deeper than " +
                                 std::to_string(max_depth) +
                                 " maps and arrays");
}

}  // namespace rockpoint::serde
