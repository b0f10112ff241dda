// The store's keys and records (store_layout.h; engine/store/FORMAT.md).
#include "engine/store/store_layout.h"

#include <bit>
#include <charconv>
#include <cstring>

#include "keys/tuple.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint::store_internal {

static_assert(std::endian::native == std::endian::little,
              "records and vectors are stored little-endian");

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

std::string RecentKey(const Namespace& ns, int64_t updated_at_us,
                      std::string_view key) {
  keys::TupleWriter writer;
  AddNamespace(writer, ns);
  // ~t reverses the order of t without overflow: newest first.
  writer.AddNull().AddInt(~updated_at_us).AddString(key);
  return writer.Release();
}

std::string RecentPrefix(std::string_view ns_key) {
  keys::TupleWriter writer;
  writer.AddNull();
  return std::string(ns_key) + writer.data();
}

Result<RecentEntry> DecodeRecentKey(std::string_view recent_key,
                                    std::string_view prefix) {
  if (recent_key.substr(0, prefix.size()) != prefix) {
    return Corrupt("recency key outside its namespace", recent_key);
  }
  keys::TupleReader reader(recent_key.substr(prefix.size()));
  int64_t inverted = 0;
  RP_RETURN_IF_ERROR(reader.ReadInt(&inverted));
  const size_t key_at = prefix.size() + reader.position();
  std::string key;
  RP_RETURN_IF_ERROR(reader.ReadString(&key));
  if (!reader.done()) return Corrupt("trailing bytes", recent_key);
  RecentEntry entry;
  entry.updated_at_us = ~inverted;
  entry.item_key.reserve(prefix.size() + recent_key.size() - key_at);
  entry.item_key.append(prefix).append(recent_key.substr(key_at));
  return entry;
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

namespace {

constexpr uint8_t kHasExpiry = 1;
constexpr uint8_t kHasTtl = 2;
constexpr size_t kFixedHeader = 1 + 8 + 8 + 1;

template <typename T>
void AppendLittleEndian(T value, std::string* out) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // the host is little-endian.
  out->append(bytes, sizeof(T));
}

template <typename T>
T ReadLittleEndian(std::string_view bytes, size_t pos) {
  T value;
  std::memcpy(&value, bytes.data() + pos, sizeof(T));
  return value;
}

}  // namespace

std::string EncodeItemRecord(const ItemRecord& record) {
  std::string out(1, static_cast<char>(kItemRecordVersion));
  AppendLittleEndian(record.created_at_us, &out);
  AppendLittleEndian(record.updated_at_us, &out);
  out.push_back(static_cast<char>((record.expires_at_us ? kHasExpiry : 0) |
                                  (record.ttl_minutes ? kHasTtl : 0)));
  if (record.expires_at_us) AppendLittleEndian(*record.expires_at_us, &out);
  if (record.ttl_minutes) AppendLittleEndian(*record.ttl_minutes, &out);
  serde::AppendMsgpack(record.value, &out);
  return out;
}

Result<ItemRecordView> ViewItemRecord(std::string_view bytes,
                                      std::string_view key) {
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kItemRecordVersion) {
    return Corrupt("unknown item record version", key);
  }
  if (bytes.size() < kFixedHeader) return Corrupt("item record truncated", key);
  ItemRecordView view;
  view.created_at_us = ReadLittleEndian<int64_t>(bytes, 1);
  view.updated_at_us = ReadLittleEndian<int64_t>(bytes, 9);
  const uint8_t flags = static_cast<uint8_t>(bytes[17]);
  if ((flags & ~(kHasExpiry | kHasTtl)) != 0) {
    return Corrupt("item record has unknown flags", key);
  }
  size_t pos = kFixedHeader;
  const size_t needed =
      pos + ((flags & kHasExpiry) ? 8 : 0) + ((flags & kHasTtl) ? 8 : 0);
  if (bytes.size() <= needed) return Corrupt("item record truncated", key);
  if (flags & kHasExpiry) {
    view.expires_at_us = ReadLittleEndian<int64_t>(bytes, pos);
    pos += 8;
  }
  if (flags & kHasTtl) {
    view.ttl_minutes = ReadLittleEndian<double>(bytes, pos);
    pos += 8;
  }
  view.value = bytes.substr(pos);
  return view;
}

Result<ItemRecord> DecodeItemRecord(std::string_view bytes,
                                    std::string_view key) {
  RP_ASSIGN_OR_RETURN(ItemRecordView view, ViewItemRecord(bytes, key));
  auto value = serde::DecodeMsgpack(view.value);
  if (!value.ok()) return Corrupt(value.status().message(), key);
  if (!value->is_map()) return Corrupt("item value is not a map", key);
  ItemRecord record;
  record.value = std::move(value).value();
  record.created_at_us = view.created_at_us;
  record.updated_at_us = view.updated_at_us;
  record.expires_at_us = view.expires_at_us;
  record.ttl_minutes = view.ttl_minutes;
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
