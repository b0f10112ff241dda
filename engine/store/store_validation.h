// The store's input checks, run on every op of a Batch before anything is
// read or written. Each returns InvalidArgument naming what is wrong.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>

#include "rockpoint/status.h"
#include "rockpoint/store.h"

namespace rockpoint::store_internal {

// LangGraph's namespace rules (non-empty, non-empty labels, no '.', root
// label not "langgraph") and the limits.
Status ValidateNamespace(const Namespace& ns, const StoreLimits& limits);
// The key's size.
Status ValidateKey(std::string_view key, const StoreLimits& limits);
// A vector of `dims` finite floats; `what` names it in the message.
Status ValidateVector(const std::vector<float>& vector,
                      std::optional<size_t> dims, std::string_view what);
// A store option set (dims > 0, TTL minutes finite and positive, sweep
// batch size > 0).
Status ValidateOpenOptions(const StoreOpenOptions& options);

// Every op of a batch; `read_only` refuses puts.
Status ValidateOp(const StoreOp& op, const StoreLimits& limits,
                  std::optional<size_t> dims, bool read_only,
                  const std::string& store_name);

}  // namespace rockpoint::store_internal
