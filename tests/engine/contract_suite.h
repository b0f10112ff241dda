// THE contract suite: every rule of docs/CONTRACT.md as a doctest case
// (contract_*.h), run on every backend.
//
// A Harness type provides:
//   static constexpr const char* kName;   // "memory", "rocksdb", ...
//   Harness();                            // a fresh, empty store
//   rockpoint::Checkpointer& store();     // valid until the next Reopen()
//   void Reopen();                        // close and reopen the store;
//                                         // no-op when not persistent
// and optionally the traits of contract_helpers.h (kTextIds,
// kWritesKeyedByTask). Usage, at global scope of one .cpp of a backend's
// test folder, whose test binary links rockpoint_contract_cases (the cases,
// compiled once; tests/CMakeLists.txt):
//   #include "engine/contract_suite.h"
//   ROCKPOINT_CONTRACT_SUITE(MyHarness);
// Every case writes, calls Reopen(), then reads, so a persistent harness
// proves that what was read survived a reopen. Cases appear in the output as
// "contract <area>", each backend a subcase named kName.
#pragma once

#include "engine/contract_harness.h"

// Registers `Harness` (a type at global or named namespace scope; once per
// Harness per test binary) to run every contract case.
#define ROCKPOINT_CONTRACT_SUITE(Harness)                                   \
  [[maybe_unused]] static const bool DOCTEST_ANONYMOUS(RpContractBackend) = \
      ::rockpoint::testing::RegisterContractBackend<Harness>()
