// Helpers for tests that run real processes: a temporary directory removed
// on destruction (temp_dir.h), and the child process of child_process.h.
#pragma once

#include "engine/rocksdb/child_process.h"
#include "temp_dir.h"
