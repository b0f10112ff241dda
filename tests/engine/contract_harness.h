// The contract suite's view of a backend: a ContractHarness (a fresh, empty
// store, reopened on request) and the registry of backends a test binary
// runs the suite on. The cases (contract_*.h) are compiled once, in
// contract_cases.cpp, and run on every backend registered in the binary
// they are linked into, each backend as a doctest subcase named after it.
#pragma once

#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/contract_helpers.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint::testing {

class ContractHarness {
 public:
  virtual ~ContractHarness() = default;
  // Valid until the next Reopen().
  virtual Checkpointer& store() = 0;
  // Closes and reopens the store; a no-op when it is not persistent.
  virtual void Reopen() = 0;
  // What the backend's keys are (contract_helpers.h, kTextIds and
  // kWritesKeyedByTask).
  virtual bool text_ids() const = 0;
  virtual bool writes_keyed_by_task() const = 0;
};

struct ContractBackend {
  std::string name;
  std::function<std::unique_ptr<ContractHarness>()> make;
};

// The backends registered in this binary, in registration order.
std::vector<ContractBackend>& ContractBackends();

// Runs `body` on a fresh harness of each registered backend, each in a
// subcase named after the backend. Fails when none is registered.
void RunOnEachBackend(void (*body)(ContractHarness&));

// A Harness type of the old template form (kName, a default constructor,
// store(), Reopen(), the optional traits) as a ContractHarness.
template <typename H>
class HarnessAdapter final : public ContractHarness {
 public:
  Checkpointer& store() override { return harness_.store(); }
  void Reopen() override { harness_.Reopen(); }
  bool text_ids() const override { return kTextIds<H>; }
  bool writes_keyed_by_task() const override { return kWritesKeyedByTask<H>; }

 private:
  H harness_;
};

template <typename H>
bool RegisterContractBackend() {
  ContractBackends().push_back(ContractBackend{
      H::kName, [] { return std::make_unique<HarnessAdapter<H>>(); }});
  return true;
}

}  // namespace rockpoint::testing

// A contract case: `body` runs with `h`, a ContractHarness&, once per
// registered backend.
#define RP_CONTRACT_CASE_IMPL(name, body)                           \
  static void body(::rockpoint::testing::ContractHarness& h);       \
  TEST_CASE(name) { ::rockpoint::testing::RunOnEachBackend(body); } \
  static void body(::rockpoint::testing::ContractHarness& h)
#define RP_CONTRACT_CASE(name) \
  RP_CONTRACT_CASE_IMPL(name, DOCTEST_ANONYMOUS(RpContractBody))
