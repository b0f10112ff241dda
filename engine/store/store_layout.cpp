// The store's keys and records (store_layout.h; engine/store/FORMAT.md).
#include "engine/store/store_layout.h"

#include <charconv>
#include <cstring>

#include "keys/tuple.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint::store_internal {
namespace {

void AddNamespace(keys::TupleWriter& writer, const Namespace& ns) {
  for (const std::string& label : ns) writer.AddString(label);
}

// Corruption naming `what` and the key it was found under.
Status Corrupt(std::string_view what, std::string_view key) {
  return Status::Corruption("store: " + std::string(what) + " at " +
                            keys::Describe(key));
}

// Reads labels up to the null that ends a namespace, then the key.
Status ReadItem(keys::TupleReader& reader, ItemAddress* out) {
  while (!reader.done() &&
         reader.PeekTypeCode() != static_cast<uint8_t>(keys::TypeCode::kNull)) {
    std::string label;
    RP_RETURN_IF_ERROR(reader.ReadString(&label));
    out->ns.push_back(std::move(label));
  }
  RP_RETURN_IF_ERROR(reader.ReadNull());
  return reader.ReadString(&out->key);
}

}  // namespace

std::string NamespaceKey(const Namespace& ns) {
  keys::TupleWriter writer;
  AddNamespace(writer, ns);
  return writer.Release();
}

std::string ItemKey(const Namespace& ns, std::string_view key) {
  keys::TupleWriter writer;
  AddNamespace(writer, ns);
  writer.AddNull().AddString(key);
  return writer.Release();
}

std::string ExpiryKey(int64_t expires_at_us, const Namespace& ns,
                      std::string_view key) {
  keys::TupleWriter writer;
  writer.AddInt(expires_at_us);
  AddNamespace(writer, ns);
  writer.AddNull().AddString(key);
  return writer.Release();
}

std::string ExpiryUpperBound(int64_t now_us) {
  keys::TupleWriter writer;
  writer.AddInt(now_us);
  return keys::TuplePrefixUpperBound(writer.data());
}

std::string VectorKey(const Namespace& ns, std::string_view key,
                      std::string_view field) {
  std::string encoded = ItemKey(ns, key);
  keys::TupleWriter writer;
  writer.AddString(field);
  return encoded + writer.data();
}

std::string RangeEnd(std::string_view prefix) {
  return keys::TuplePrefixUpperBound(prefix);
}

Result<ItemAddress> DecodeItemKey(std::string_view encoded,
                                  std::string* field) {
  keys::TupleReader reader(encoded);
  ItemAddress address;
  RP_RETURN_IF_ERROR(ReadItem(reader, &address));
  if (field != nullptr) RP_RETURN_IF_ERROR(reader.ReadString(field));
  if (!reader.done()) return Corrupt("trailing bytes", encoded);
  return address;
}

Result<Namespace> DecodeNamespaceKey(std::string_view encoded) {
  RP_ASSIGN_OR_RETURN(keys::Tuple tuple, keys::Decode(encoded));
  Namespace ns;
  for (keys::Element& element : tuple) {
    auto* label = std::get_if<std::string>(&element);
    if (label == nullptr) {
      return Corrupt("non-text label", encoded);
    }
    ns.push_back(std::move(*label));
  }
  return ns;
}

Result<std::pair<int64_t, ItemAddress>> DecodeExpiryKey(
    std::string_view encoded) {
  keys::TupleReader reader(encoded);
  int64_t expires_at = 0;
  RP_RETURN_IF_ERROR(reader.ReadInt(&expires_at));
  ItemAddress address;
  RP_RETURN_IF_ERROR(ReadItem(reader, &address));
  if (!reader.done()) return Corrupt("trailing bytes", encoded);
  return std::make_pair(expires_at, std::move(address));
}

std::string EncodeItemRecord(const ItemRecord& record) {
  serde::Value::Array fields;
  fields.reserve(5);
  fields.emplace_back(record.value);
  fields.emplace_back(record.created_at_us);
  fields.emplace_back(record.updated_at_us);
  fields.push_back(record.expires_at_us ? serde::Value(*record.expires_at_us)
                                        : serde::Value());
  fields.push_back(record.ttl_minutes ? serde::Value(*record.ttl_minutes)
                                      : serde::Value());
  std::string out(1, static_cast<char>(kItemRecordVersion));
  serde::AppendMsgpack(serde::Value(std::move(fields)), &out);
  return out;
}

Result<ItemRecord> DecodeItemRecord(std::string_view bytes,
                                    std::string_view where) {
  // `where` is the item key, described only in an error.
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kItemRecordVersion) {
    return Corrupt("unknown item record version", where);
  }
  auto decoded = serde::DecodeMsgpack(bytes.substr(1));
  if (!decoded.ok()) return Corrupt(decoded.status().message(), where);
  serde::Value fields = std::move(decoded).value();
  if (!fields.is_array() || fields.as_array().size() != 5) {
    return Corrupt("item record is not a 5-field array", where);
  }
  serde::Value::Array& f = fields.as_array();
  const bool well_formed =
      f[0].is_map() && f[1].is_int() && f[2].is_int() &&
      (f[3].is_null() || f[3].is_int()) &&
      (f[4].is_null() || f[4].is_double() || f[4].is_int());
  if (!well_formed)
    return Corrupt("item record field of the wrong type", where);
  ItemRecord record;
  record.value = std::move(f[0]);
  record.created_at_us = f[1].as_int();
  record.updated_at_us = f[2].as_int();
  if (f[3].is_int()) record.expires_at_us = f[3].as_int();
  if (f[4].is_double()) record.ttl_minutes = f[4].as_double();
  if (f[4].is_int()) record.ttl_minutes = static_cast<double>(f[4].as_int());
  return record;
}

std::string EncodeVector(const std::vector<float>& vector) {
  static_assert(sizeof(float) == 4);
  std::string out(vector.size() * sizeof(float), '\0');
  // x86-64 and aarch64 are little-endian, the stored order.
  if (!vector.empty()) std::memcpy(out.data(), vector.data(), out.size());
  return out;
}

Result<std::vector<float>> DecodeVector(std::string_view bytes,
                                        std::string_view where) {
  // `where` is the vector key, described only in an error.
  if (bytes.size() % sizeof(float) != 0) {
    return Corrupt("vector of " + std::to_string(bytes.size()) + " bytes",
                   where);
  }
  std::vector<float> vector(bytes.size() / sizeof(float));
  if (!bytes.empty()) std::memcpy(vector.data(), bytes.data(), bytes.size());
  return vector;
}

std::string EncodeCount(uint64_t count) { return std::to_string(count); }

Result<uint64_t> DecodeCount(std::string_view bytes, std::string_view where) {
  // `where` is the namespace key, described only in an error.
  uint64_t count = 0;
  auto [end, error] =
      std::from_chars(bytes.data(), bytes.data() + bytes.size(), count);
  if (error != std::errc() || end != bytes.data() + bytes.size()) {
    return Corrupt("namespace count is not a number", where);
  }
  return count;
}

}  // namespace rockpoint::store_internal
