// Search filters (store_filter.h).
#include "engine/store/store_filter.h"

#include <array>
#include <iterator>
#include <optional>
#include <string_view>
#include <vector>

#include "rockpoint/msgpack_codec.h"
#include "serde/msgpack_map_entries.h"

namespace rockpoint::store_internal {
namespace {

constexpr std::array<std::string_view, 6> kOperators = {"$eq",  "$ne", "$gt",
                                                        "$gte", "$lt", "$lte"};

bool IsOperatorMap(const serde::Value::Map& map) {
  for (const auto& [key, unused] : map) {
    if (!key.empty() && key[0] == '$') return true;
  }
  return false;
}

bool IsNumber(const serde::Value& v) { return v.is_int() || v.is_double(); }

double AsNumber(const serde::Value& v) {
  return v.is_int() ? static_cast<double>(v.as_int()) : v.as_double();
}

bool JsonEqual(const serde::Value& a, const serde::Value& b);

bool ArraysEqual(const serde::Value::Array& a, const serde::Value::Array& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!JsonEqual(a[i], b[i])) return false;
  }
  return true;
}

bool MapsEqual(const serde::Value::Map& a, const serde::Value::Map& b) {
  if (a.size() != b.size()) return false;
  for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
    if (ia->first != ib->first || !JsonEqual(ia->second, ib->second)) {
      return false;
    }
  }
  return true;
}

bool JsonEqual(const serde::Value& a, const serde::Value& b) {
  if (IsNumber(a) && IsNumber(b)) {
    if (a.is_int() && b.is_int()) return a.as_int() == b.as_int();
    return AsNumber(a) == AsNumber(b);
  }
  if (a.kind() != b.kind()) return false;
  if (a.is_array()) return ArraysEqual(a.as_array(), b.as_array());
  if (a.is_map()) return MapsEqual(a.as_map(), b.as_map());
  return a == b;
}

// -1, 0 or 1 for two numbers or two strings; nullopt for any other pair.
std::optional<int> Order(const serde::Value* a, const serde::Value& b) {
  if (a == nullptr) return std::nullopt;
  if (IsNumber(*a) && IsNumber(b)) {
    if (a->is_int() && b.is_int()) {
      return a->as_int() < b.as_int() ? -1 : (a->as_int() > b.as_int());
    }
    const double x = AsNumber(*a), y = AsNumber(b);
    if (x < y) return -1;
    if (x > y) return 1;
    if (x == y) return 0;
    return std::nullopt;  // NaN
  }
  if (a->is_string() && b.is_string()) {
    const int c = a->as_string().compare(b.as_string());
    return c < 0 ? -1 : (c > 0);
  }
  return std::nullopt;
}

bool Equal(const serde::Value* value, const serde::Value& expected) {
  if (value == nullptr) return expected.is_null();
  return JsonEqual(*value, expected);
}

bool Apply(const serde::Value* value, std::string_view op,
           const serde::Value& operand) {
  if (op == "$eq") return Equal(value, operand);
  if (op == "$ne") return !Equal(value, operand);
  const std::optional<int> order = Order(value, operand);
  if (!order) return false;
  if (op == "$gt") return *order > 0;
  if (op == "$gte") return *order >= 0;
  if (op == "$lt") return *order < 0;
  return *order <= 0;  // $lte
}

bool Matches(const serde::Value* value, const serde::Value& condition);

bool MatchesFields(const serde::Value* value, const serde::Value::Map& fields) {
  if (value == nullptr || !value->is_map()) return false;
  const serde::Value::Map& map = value->as_map();
  for (const auto& [name, condition] : fields) {
    auto it = map.find(name);
    if (!Matches(it == map.end() ? nullptr : &it->second, condition)) {
      return false;
    }
  }
  return true;
}

bool Matches(const serde::Value* value, const serde::Value& condition) {
  if (condition.is_map()) {
    const serde::Value::Map& map = condition.as_map();
    if (!IsOperatorMap(map)) return MatchesFields(value, map);
    for (const auto& [op, operand] : map) {
      if (!Apply(value, op, operand)) return false;
    }
    return true;
  }
  return Equal(value, condition);
}

Status ValidateCondition(const std::string& path,
                         const serde::Value& condition) {
  if (!condition.is_map()) return Status::OK();
  const serde::Value::Map& map = condition.as_map();
  const bool operators = IsOperatorMap(map);
  for (const auto& [key, operand] : map) {
    if (operators) {
      bool known = false;
      for (std::string_view op : kOperators) known = known || key == op;
      if (!known) {
        return Status::InvalidArgument(
            "filter on \"" + path + "\": unsupported operator \"" + key +
            "\" (supported: $eq $ne $gt $gte $lt $lte)");
      }
    } else {
      RP_RETURN_IF_ERROR(ValidateCondition(path + "." + key, operand));
    }
  }
  return Status::OK();
}

}  // namespace

Status ValidateFilter(const serde::Value::Map& filter) {
  for (const auto& [field, condition] : filter) {
    RP_RETURN_IF_ERROR(ValidateCondition(field, condition));
  }
  return Status::OK();
}

bool MatchesFilter(const serde::Value& value, const serde::Value::Map& filter) {
  return MatchesFields(&value, filter);
}

Result<bool> MatchesFilterEncoded(std::string_view map_bytes,
                                  const serde::Value::Map& filter) {
  // The decoded value of each filtered field present, in filter order.
  std::vector<std::optional<serde::Value>> fields(filter.size());
  Status failed;
  RP_RETURN_IF_ERROR(serde::ForEachMapEntry(
      map_bytes, [&](std::string_view name, std::string_view value) {
        auto condition = filter.find(name);
        if (condition == filter.end()) return true;
        auto decoded = serde::DecodeMsgpack(value);
        if (!decoded.ok()) {
          failed = decoded.status();
          return false;
        }
        fields[std::distance(filter.begin(), condition)] =
            std::move(decoded).value();
        return true;
      }));
  RP_RETURN_IF_ERROR(failed);
  size_t i = 0;
  for (const auto& [name, condition] : filter) {
    const std::optional<serde::Value>& field = fields[i++];
    if (!Matches(field ? &*field : nullptr, condition)) return false;
  }
  return true;
}

}  // namespace rockpoint::store_internal
