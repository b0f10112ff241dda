// PostgresCheckpointer::FindOrphanWrites (engine/postgres/pg_orphans.cpp).
#include <doctest/doctest.h>

#include "engine/orphan_writes_cases.h"
#include "engine/postgres/postgres_checkpointer.h"
#include "engine/postgres/postgres_test_server.h"

namespace rockpoint::testing {
namespace {

TEST_CASE(
    "postgres: FindOrphanWrites lists the writes of missing checkpoints") {
  PostgresOptions options;
  options.url = FreshDatabase("orphans");
  auto store = Unwrap(PostgresCheckpointer::Open(options));
  CheckFindOrphanWrites(*store);
}

}  // namespace
}  // namespace rockpoint::testing
