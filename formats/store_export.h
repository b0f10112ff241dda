// The item store's export format (docs/STORE.md, "Export"): JSON lines, a
// header then one line per item, what `rockpoint store export` writes and
// `rockpoint store import` reads.
//
//   {"format":"rockpoint-store-export","version":1}
//   {"ns":[<text>...],"key":<text>,"value":<value>,
//    "created_at_us":<int>,"updated_at_us":<int>,
//    "expires_at_us":<int>|null,"ttl_minutes":<number>|null,
//    "vectors":[{"field":<text>,"f32":"<base64>"}...]}
//
// <text> is a text field (formats/json_text.h: a string, or {"b64": ...}
// for bytes that are not UTF-8); <value> is the lossless JSON form of a
// Value (formats/value_json.h); "f32" is the vector's float32s,
// little-endian, in base64. Items come in key order, so export -> import ->
// export is byte-identical.
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

#include "formats/json_text.h"
#include "rockpoint/status.h"
#include "rockpoint/store.h"

namespace rockpoint::formats {

inline constexpr std::string_view kStoreExportFormat = "rockpoint-store-export";
inline constexpr int kStoreExportVersion = 1;

Json StoreExportHeader();
// InvalidArgument unless `json` is a header of a version this build reads.
Status CheckStoreExportHeader(const Json& json);

Json StoredItemToJson(const StoredItem& item);
// InvalidArgument naming the field for a line outside the grammar above.
Result<StoredItem> StoredItemFromJson(const Json& json);

}  // namespace rockpoint::formats
