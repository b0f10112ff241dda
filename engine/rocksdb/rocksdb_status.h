// The one translation of a RocksDB status into a rockpoint Status, shared by
// the checkpointer's and the store's RocksDB backends.
//
// Thread-safety: pure function.
#pragma once

#include <rocksdb/status.h>

#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint {

// `context` says what was being done (e.g. "put", "open /path"); a lock
// failure on open becomes Busy.
Status ToStatus(const rocksdb::Status& status, std::string_view context);

}  // namespace rockpoint
