// Conversions between the JS shapes src/store/ hands the ItemStore and the
// item store's C++ types (rockpoint/store.h). Values and filters go through
// ValueFromJs / ValueToJs (native/convert.h).
//
// JS -> C++ (every function throws Napi::TypeError naming the field, e.g.
// "ops[2].namespace[0] must be a string, got number", on a shape it does not
// accept; nothing is partially converted):
//   options  {createIfMissing?, readOnly?, syncWrites?: boolean,
//             dims?: integer >= 1 (the index; absent: none), and with dims
//             exactSearchMaxVectors?, hnswLinks?, hnswBuildCandidates?,
//             hnswSearchCandidates?: integers (StoreIndexOptions),
//             ttl?: {defaultTtl?: minutes, refreshOnRead?: boolean,
//                    sweepIntervalMinutes?: minutes}}
//            (absent members keep StoreOpenOptions' defaults; the engine's
//            OpenStore judges the values).
//   ops      an array of
//     {kind: "get", namespace: string[], key: string, refreshTtl?: boolean}
//     {kind: "put", namespace, key, value: object | null (delete),
//      vectors?: [[field: string, vector: Float32Array | number[]], ...],
//      ttl?: undefined (the store's default) | null (never) | minutes}
//     {kind: "search", namespacePrefix: string[], filter?: object,
//      query?: Float32Array | number[], limit?: integer, offset?: integer,
//      refreshTtl?: boolean}
//     {kind: "list", conditions?: [{matchType: "prefix" | "suffix",
//      path: string[]}], maxDepth?: integer, limit?, offset?}
// C++ -> JS: one result per op, in order:
//   get     null | item
//   put     undefined
//   search  [item with `score` (a number, or undefined without one)]
//   list    [string[]]
//   item    {namespace, key, value, createdAt, updatedAt}: times are
//           numbers, microseconds since the epoch (src/store/ops.js makes
//           Dates).
//
// Thread-safety: JS thread only (they touch JS values).
#pragma once

#include <napi.h>

#include <optional>
#include <vector>

#include "rockpoint/store.h"

namespace rockpoint::node {

StoreOpenOptions StoreOptionsFromJs(const Napi::Value& value);
std::vector<StoreOp> StoreOpsFromJs(const Napi::Value& value);
Napi::Value StoreResultsToJs(Napi::Env env,
                             const std::vector<StoreOpResult>& results);
// {vectors, approximateReady}, or null for a store without an index.
Napi::Value IndexStatsToJs(Napi::Env env,
                           const std::optional<StoreIndexStats>& stats);

}  // namespace rockpoint::node
