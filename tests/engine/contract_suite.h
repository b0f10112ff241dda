// THE contract suite: every rule of docs/CONTRACT.md as doctest template
// cases, run on every backend.
//
// A Harness type provides:
//   static constexpr const char* kName;   // "memory", "rocksdb", ...
//   Harness();                            // a fresh, empty store
//   rockpoint::Checkpointer& store();     // valid until the next Reopen()
//   void Reopen();                        // close and reopen the store;
//                                         // no-op when not persistent
// Usage, at global scope of one .cpp of a backend's test folder:
//   #include "engine/contract_suite.h"
//   ROCKPOINT_CONTRACT_SUITE(MyHarness);
// Every case writes, calls Reopen(), then reads, so a persistent harness
// proves that what was read survived a reopen. Cases appear in the output as
// "contract <area><kName>".
#pragma once

#include "engine/contract_bad_input.h"
#include "engine/contract_close.h"
#include "engine/contract_copy_target.h"
#include "engine/contract_delete.h"
#include "engine/contract_delta.h"
#include "engine/contract_delta_safety.h"
#include "engine/contract_extended.h"
#include "engine/contract_helpers.h"
#include "engine/contract_hidden.h"
#include "engine/contract_list.h"
#include "engine/contract_put.h"
#include "engine/contract_retention.h"
#include "engine/contract_writes.h"

// Instantiates every contract case for `Harness` (a type at global or named
// namespace scope; use once per Harness per test binary).
#define ROCKPOINT_CONTRACT_SUITE(Harness)                        \
  TYPE_TO_STRING_AS(Harness::kName, Harness);                    \
  TEST_CASE_TEMPLATE_INVOKE(contract_put, Harness);              \
  TEST_CASE_TEMPLATE_INVOKE(contract_get, Harness);              \
  TEST_CASE_TEMPLATE_INVOKE(contract_writes, Harness);           \
  TEST_CASE_TEMPLATE_INVOKE(contract_list, Harness);             \
  TEST_CASE_TEMPLATE_INVOKE(contract_delete_thread, Harness);    \
  TEST_CASE_TEMPLATE_INVOKE(contract_delete_runs, Harness);      \
  TEST_CASE_TEMPLATE_INVOKE(contract_copy, Harness);             \
  TEST_CASE_TEMPLATE_INVOKE(contract_copy_target, Harness);      \
  TEST_CASE_TEMPLATE_INVOKE(contract_prune, Harness);            \
  TEST_CASE_TEMPLATE_INVOKE(contract_delta, Harness);            \
  TEST_CASE_TEMPLATE_INVOKE(contract_delta_safety, Harness);     \
  TEST_CASE_TEMPLATE_INVOKE(contract_retention, Harness);        \
  TEST_CASE_TEMPLATE_INVOKE(contract_hidden, Harness);           \
  TEST_CASE_TEMPLATE_INVOKE(contract_list_threads, Harness);     \
  TEST_CASE_TEMPLATE_INVOKE(contract_ids, Harness);              \
  TEST_CASE_TEMPLATE_INVOKE(contract_branches, Harness);         \
  TEST_CASE_TEMPLATE_INVOKE(contract_versions, Harness);         \
  TEST_CASE_TEMPLATE_INVOKE(contract_bad_input, Harness);        \
  TEST_CASE_TEMPLATE_INVOKE(contract_metadata_nesting, Harness); \
  TEST_CASE_TEMPLATE_INVOKE(contract_close, Harness)
