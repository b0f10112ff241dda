// Retention on PostgreSQL beyond the contract suite: sweeps racing with
// writers on other connections keep every checkpoint written after they
// began (the sweep's exclusive advisory lock against the puts' shared one).
#include <doctest/doctest.h>

#include <memory>

#include "engine/postgres/postgres_checkpointer.h"
#include "engine/postgres/postgres_test_server.h"
#include "engine/retention_concurrency.h"

namespace rockpoint::testing {
namespace {

TEST_CASE("postgres retention: sweeps racing writers keep fresh writes") {
  PostgresOptions options;
  options.url = FreshDatabase("retention_race");
  options.pool_size = 4;
  auto store = Unwrap(PostgresCheckpointer::Open(options));
  CheckSweepsRacingWriters(*store);
}

}  // namespace
}  // namespace rockpoint::testing
