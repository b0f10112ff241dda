// The backends Open and Rekey reach (rockpoint/open.h,
// rockpoint/maintenance.h). Two libraries define these: rockpoint_open
// (engine/open/all/) with every backend, and rockpoint_open_embedded
// (engine/open/embedded/) with the embedded RocksDB and memory backends
// only, for the language bindings, which then need neither SQLite's nor
// libpq's libraries; it answers NotSupported for the other schemes.
#pragma once

#include <memory>
#include <optional>
#include <utility>

#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/open.h"
#include "rockpoint/status.h"

namespace rockpoint {

// The backend's open of `location` with `options` (what the shared fields
// and the backend's tuning say), without the retention wrapper.
Result<std::unique_ptr<Checkpointer>> OpenBackend(const StoreLocation& location,
                                                  const StoreOptions& options);

// The backend's Rekey (rockpoint/maintenance.h).
Status RekeyBackend(const StoreLocation& location, const StoreOptions& options,
                    const std::optional<EncryptionOptions>& new_encryption);

// NotSupported: this build's Open has no `backend`.
Status BackendNotBuilt(BackendKind backend);

// The backends both libraries have (engine/open/embedded_backends.cpp).
Result<std::unique_ptr<Checkpointer>> OpenRocksDbBackend(
    const StoreLocation& location, const StoreOptions& options);
Result<std::unique_ptr<Checkpointer>> OpenMemoryBackend(
    const StoreOptions& options);
Status RekeyRocksDbBackend(
    const StoreLocation& location, const StoreOptions& options,
    const std::optional<EncryptionOptions>& new_encryption);

// A file backend's options (RocksDbOptions, SqliteOptions, JsonlOptions)
// with the fields they share set from `options`, at location.target.
template <typename BackendOptions>
BackendOptions SharedOptions(const StoreLocation& location,
                             const StoreOptions& options) {
  BackendOptions backend;
  backend.path = location.target;
  backend.create_if_missing = options.create_if_missing;
  backend.read_only = options.read_only;
  backend.sync_writes = options.sync_writes;
  if (options.limits) backend.limits = *options.limits;
  backend.encryption = options.encryption;
  return backend;
}

// A backend's open result as the front it is.
template <typename Backend>
Result<std::unique_ptr<Checkpointer>> AsFront(
    Result<std::unique_ptr<Backend>> opened) {
  if (!opened.ok()) return opened.status();
  return std::unique_ptr<Checkpointer>(std::move(opened).value());
}

}  // namespace rockpoint
