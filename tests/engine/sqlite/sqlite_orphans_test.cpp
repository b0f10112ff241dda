// SqliteCheckpointer::FindOrphanWrites (engine/sqlite/sqlite_orphans.cpp).
#include <doctest/doctest.h>

#include "engine/orphan_writes_cases.h"
#include "engine/sqlite/sqlite_checkpointer.h"

namespace rockpoint::testing {
namespace {

TEST_CASE("sqlite: FindOrphanWrites lists the writes of missing checkpoints") {
  TempDir dir;
  SqliteOptions options;
  options.path = dir.Sub("store.db");
  auto store = Unwrap(SqliteCheckpointer::Open(options));
  CheckFindOrphanWrites(*store);
}

}  // namespace
}  // namespace rockpoint::testing
