// Open (rockpoint/open.h): the location's checks and the retention wrapper
// around the backend's own open (openers.h).
#include "rockpoint/open.h"

#include <utility>

#include "engine/open/openers.h"
#include "rockpoint/retention_checkpointer.h"

namespace rockpoint {

Result<std::unique_ptr<Checkpointer>> Open(const StoreLocation& location,
                                           const StoreOptions& options) {
  const bool has_path = location.backend != BackendKind::kPostgres &&
                        location.backend != BackendKind::kMemory;
  if (has_path && !location.exists && !options.create_if_missing &&
      location.target != ":memory:") {
    return Status::NotFound("store not found: " + location.target);
  }
  if (options.retention) {
    // Before the store is opened, so a refused policy creates nothing.
    RP_RETURN_IF_ERROR(ValidateRetentionPolicy(options.retention->policy));
  }
  RP_ASSIGN_OR_RETURN(std::unique_ptr<Checkpointer> store,
                      OpenBackend(location, options));
  if (!options.retention) return store;
  RP_ASSIGN_OR_RETURN(
      std::unique_ptr<RetentionCheckpointer> retained,
      RetentionCheckpointer::Wrap(std::move(store), *options.retention));
  return std::unique_ptr<Checkpointer>(std::move(retained));
}

Result<std::unique_ptr<Checkpointer>> Open(std::string_view url,
                                           const StoreOptions& options) {
  RP_ASSIGN_OR_RETURN(const StoreLocation location, LocateStore(url));
  return Open(location, options);
}

}  // namespace rockpoint
