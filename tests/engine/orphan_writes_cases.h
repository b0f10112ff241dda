// The backends' FindOrphanWrites (SQLite, JSONL, PostgreSQL; RocksDB's
// verify finds them in its raw scan): the writes of a checkpoint the store
// does not hold, and only those, in key order.
#pragma once

#include <doctest/doctest.h>

#include <vector>

#include "engine/contract_helpers.h"
#include "engine/store_builders.h"
#include "rockpoint/types.h"

namespace rockpoint::testing {

// REQUIRES: `store` is empty and writable.
template <typename Store>
void CheckFindOrphanWrites(Store& store) {
  RP_REQUIRE_OK(
      store.Put(Cfg("t"), MakeCheckpoint(CpId(1)), Meta(), {}).status());
  RP_REQUIRE_OK(store.PutWrites(Cfg("t", CpId(1)), {W("a", "1")}, "task-1"));
  CHECK(Unwrap(store.FindOrphanWrites()).empty());

  // put_writes takes any checkpoint id; these two have no checkpoint.
  RP_REQUIRE_OK(store.PutWrites(Cfg("t", CpId(9), "sub"),
                                {W("a", "2"), W("b", "3")}, "task-2", "p"));
  RP_REQUIRE_OK(store.PutWrites(Cfg("u", CpId(1)), {W("a", "4")}, "task-3"));
  const std::vector<WriteLocation> expected = {
      {"t", "sub", CpId(9), "p", "task-2", 0},
      {"t", "sub", CpId(9), "p", "task-2", 1},
      {"u", "", CpId(1), "", "task-3", 0},
  };
  CHECK(Unwrap(store.FindOrphanWrites()) == expected);

  // A put of the missing checkpoint adopts its writes.
  RP_REQUIRE_OK(
      store.Put(Cfg("u"), MakeCheckpoint(CpId(1)), Meta(), {}).status());
  CHECK(Unwrap(store.FindOrphanWrites()).size() == 2);
}

}  // namespace rockpoint::testing
