// Every contract case (contract_*.h), compiled once into the object library
// rockpoint_contract_cases that the backends' test binaries link; each runs
// on the backends its binary registers (contract_suite.h).
#include "engine/contract_bad_input.h"
#include "engine/contract_close.h"
#include "engine/contract_copy_target.h"
#include "engine/contract_damage.h"
#include "engine/contract_delete.h"
#include "engine/contract_delta.h"
#include "engine/contract_delta_safety.h"
#include "engine/contract_encryption.h"
#include "engine/contract_extended.h"
#include "engine/contract_harness.h"
#include "engine/contract_hidden.h"
#include "engine/contract_kill.h"
#include "engine/contract_list.h"
#include "engine/contract_put.h"
#include "engine/contract_read_only.h"
#include "engine/contract_retention.h"
#include "engine/contract_writes.h"

namespace rockpoint::testing {

// A backend without raw access never has these called: its raw() is false.
std::string ContractStores::Sealed(const std::string&, const RecordRef&) {
  FAIL("this backend's ContractStores has no raw access");
  return "";
}
void ContractStores::SetSealed(const std::string&, const RecordRef&,
                               const std::string&) {
  FAIL("this backend's ContractStores has no raw access");
}
void ContractStores::InjectPlaintext(const std::string& name,
                                     const std::string& plain,
                                     const RecordRef& record) {
  SetSealed(name, record, Sealed(plain, record));
}
std::vector<std::string> ContractStores::NamesOf(const RecordRef&) const {
  FAIL("this backend's ContractStores has no raw access");
  return {};
}

std::vector<ContractBackend>& ContractBackends() {
  static std::vector<ContractBackend> backends;
  return backends;
}

void RunOnEachBackend(void (*body)(ContractHarness&)) {
  REQUIRE_MESSAGE(!ContractBackends().empty(),
                  "no contract backend is registered in this binary");
  for (const ContractBackend& backend : ContractBackends()) {
    SUBCASE(backend.name.c_str()) {
      std::unique_ptr<ContractHarness> harness = backend.make();
      body(*harness);
    }
  }
}

}  // namespace rockpoint::testing
