// Engine errors as Python exceptions.
//
// ThrowIfError raises (as a C++ exception that nanobind translates once the
// call returns to Python) the class of langgraph.checkpoint.rockpoint.errors
// matching the Status code, with the engine's message:
//   InvalidArgument -> InvalidArgumentError (a ValueError)
//   NotFound -> NotFoundError (a LookupError), Busy -> BusyError,
//   Corruption -> CorruptionError, IOError -> StorageIOError (an OSError),
//   Aborted -> ClosedError, NotSupported -> NotSupportedError.
#pragma once

#include <nanobind/nanobind.h>

#include <stdexcept>

#include "rockpoint/status.h"

namespace rockpoint::py {

namespace nb = nanobind;

class EngineError : public std::runtime_error {
 public:
  explicit EngineError(Status status)
      : std::runtime_error(status.message()), status_(std::move(status)) {}
  const Status& status() const { return status_; }

 private:
  Status status_;
};

inline void ThrowIfError(const Status& status) {
  if (!status.ok()) throw EngineError(status);
}

// Registers the EngineError translator. Call once from module init.
void RegisterErrors();

}  // namespace rockpoint::py
