// PostgresCheckpointer::Open: the pool, connected once, with its schema
// created or checked.
#include "engine/postgres/postgres_checkpointer.h"

#include "engine/postgres/postgres_impl.h"

namespace rockpoint {

Result<std::unique_ptr<PostgresCheckpointer>> PostgresCheckpointer::Open(
    const PostgresOptions& options) {
  if (options.url.empty()) {
    return Status::InvalidArgument("options.url is empty");
  }
  std::unique_ptr<PostgresCheckpointer> store(
      new PostgresCheckpointer(options));
  RP_RETURN_IF_ERROR(store->Initialize());
  return store;
}

}  // namespace rockpoint
