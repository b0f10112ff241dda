// MemoryCheckpointer: the reference backend. Keeps everything in process
// memory behind one mutex; nothing survives the process. It is the executable
// reading of docs/CONTRACT.md that the other backends are compared with, so it
// favours plainness over speed (the delta walk follows parent links one
// lookup at a time).
//
// Thread-safety: safe to call from many threads, Close included.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "rockpoint/checkpointer.h"
#include "rockpoint/maintenance.h"

namespace rockpoint {

class MemoryCheckpointer final : public Checkpointer, public Maintenance {
 public:
  explicit MemoryCheckpointer(CheckpointerLimits limits = {});
  ~MemoryCheckpointer() override;

  // Maintenance (rockpoint/maintenance.h).
  Result<std::vector<WriteLocation>> FindOrphanWrites() override;
  BackendKind backend() const override { return BackendKind::kMemory; }

 private:
  // The backend hooks (rockpoint/checkpointer.h).
  ROCKPOINT_CHECKPOINTER_HOOKS(, override)
  Maintenance* DoMaintenance() override { return this; }
  // The mutex and the data it guards (engine/memory_checkpointer.cpp).
  struct State;
  const std::unique_ptr<State> state_;
};

}  // namespace rockpoint
