// The keys and records of a store (engine/store/FORMAT.md is the spec):
//
//   items       (label..., null, key)              -> item record
//   namespaces  (label...)                         -> item count (decimal)
//   expiry      (expires_at_us, label..., null, key) -> ""
//   vectors     (label..., null, key, field)       -> float32[dims], LE
//   meta        name                               -> text
//   recent      (label..., null, ~updated_at_us, key) -> ""
//
// Labels, keys and fields are tuple text strings (keys/FORMAT.md), so every
// item of a namespace prefix is one key range, and the null after the
// labels keeps ("a","b") from matching the item ("a") / "b".
//
// Item record (fixed header, then the value, so the times and expiry read
// without decoding the value):
//   version u8 (0x01) | created_at_us i64 LE | updated_at_us i64 LE |
//   flags u8 (bit 0: expiry, bit 1: ttl) | [expires_at_us i64 LE] |
//   [ttl_minutes f64 LE] | value (msgpack map)
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/status.h"
#include "rockpoint/store.h"
#include "rockpoint/value.h"

namespace rockpoint::store_internal {

// Persisted in every item record: do not renumber.
inline constexpr uint8_t kItemRecordVersion = 0x01;
// The store layout version, in meta "format": 2 adds the recent family;
// a format 1 store is upgraded when opened for writing.
inline constexpr int64_t kStoreFormatVersion = 2;
inline constexpr int64_t kFormatWithoutRecent = 1;
inline constexpr std::string_view kFormatMeta = "format";
inline constexpr std::string_view kDimsMeta = "dims";

std::string NamespaceKey(const Namespace& ns);
std::string ItemKey(const Namespace& ns, std::string_view key);
std::string ExpiryKey(int64_t expires_at_us, const Namespace& ns,
                      std::string_view key);
// The expiry keys of everything that expires at or before `now_us` are
// below ExpiryUpperBound(now_us).
std::string ExpiryUpperBound(int64_t now_us);
std::string VectorKey(const Namespace& ns, std::string_view key,
                      std::string_view field);
// The recency key of an item: in each namespace, newest updated first,
// ties in key order. The recency keys of the namespace whose NamespaceKey
// is `ns_key` are those starting with RecentPrefix(ns_key).
std::string RecentKey(const Namespace& ns, int64_t updated_at_us,
                      std::string_view key);
std::string RecentPrefix(std::string_view ns_key);
struct RecentEntry {
  int64_t updated_at_us = 0;
  std::string item_key;
};
// The update time and item key of `recent_key`, which starts with
// `prefix` (a RecentPrefix). Corruption for anything else.
Result<RecentEntry> DecodeRecentKey(std::string_view recent_key,
                                    std::string_view prefix);
// The exclusive end of the keys that start with the encoded tuple `prefix`
// (NamespaceKey or ItemKey).
std::string RangeEnd(std::string_view prefix);

struct ItemAddress {
  Namespace ns;
  std::string key;
};
// Decodes an item key, or the item part of a vector key (its field in
// *field when given). Corruption for anything else.
Result<ItemAddress> DecodeItemKey(std::string_view encoded,
                                  std::string* field = nullptr);
Result<Namespace> DecodeNamespaceKey(std::string_view encoded);
// The expiry time and item of an expiry key.
Result<std::pair<int64_t, ItemAddress>> DecodeExpiryKey(
    std::string_view encoded);

struct ItemRecord {
  serde::Value value;
  int64_t created_at_us = 0;
  int64_t updated_at_us = 0;
  std::optional<int64_t> expires_at_us;
  std::optional<double> ttl_minutes;
};
// Whether the item has expired at `now_us` (expiry at or before it).
inline bool IsExpired(const ItemRecord& record, int64_t now_us) {
  return record.expires_at_us && *record.expires_at_us <= now_us;
}

// A record's header read in place; `value` is the msgpack map's bytes.
// REQUIRES: the record bytes outlive the view.
struct ItemRecordView {
  int64_t created_at_us = 0;
  int64_t updated_at_us = 0;
  std::optional<int64_t> expires_at_us;
  std::optional<double> ttl_minutes;
  std::string_view value;
};
// Corruption (naming the item key `key`) for a header this build cannot
// read; the value is not checked.
Result<ItemRecordView> ViewItemRecord(std::string_view bytes,
                                      std::string_view key);
inline bool IsExpired(const ItemRecordView& view, int64_t now_us) {
  return view.expires_at_us && *view.expires_at_us <= now_us;
}

std::string EncodeItemRecord(const ItemRecord& record);
// Corruption (naming the item key `key`) for a record this build cannot
// read.
Result<ItemRecord> DecodeItemRecord(std::string_view bytes,
                                    std::string_view key);

std::string EncodeVector(const std::vector<float>& vector);
// Corruption (naming the vector key `key`) when the length is not a whole
// number of floats.
Result<std::vector<float>> DecodeVector(std::string_view bytes,
                                        std::string_view key);

std::string EncodeCount(uint64_t count);
// Corruption (naming the namespace key `key`) for anything but a number.
Result<uint64_t> DecodeCount(std::string_view bytes, std::string_view key);

}  // namespace rockpoint::store_internal
