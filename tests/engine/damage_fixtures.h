// Stores whose records a damage test then takes apart: shared by the
// contract's damage cases (contract_damage.h) and the backends' own damage
// tests.
#pragma once

#include "engine/contract_helpers.h"

namespace rockpoint::testing {

// Thread "t": cp0001 stores a=1 (value record ("bl", "t", "", "a", 1)),
// cp0002 inherits it, cp0003 bumps a to 2 without a value ("empty").
// Thread "u": cp0001 names z@9, a version no put stored (no entry, and no
// error).
inline void PutLostValueThreads(Checkpointer& store) {
  DoPut(store, {.thread = "t",
                .id = CpId(1),
                .values = {{"a", Val("1")}},
                .versions = {{"a", int64_t{1}}}});
  DoPut(store, {.thread = "t",
                .id = CpId(2),
                .parent = CpId(1),
                .versions = {{"a", int64_t{1}}},
                .new_versions = ChannelVersions{}});
  DoPut(store, {.thread = "t",
                .id = CpId(3),
                .parent = CpId(2),
                .versions = {{"a", int64_t{2}}}});
  DoPut(store, {.thread = "u",
                .id = CpId(1),
                .versions = {{"z", int64_t{9}}},
                .new_versions = ChannelVersions{}});
}

}  // namespace rockpoint::testing
