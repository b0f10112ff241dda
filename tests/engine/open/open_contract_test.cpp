// The contract suite on stores opened through rockpoint::Open: a bare path
// (a RocksDB directory, recognized again by its content on every reopen)
// and the memory: URL. Reopen() opens the same URL again, so what a case
// reads came back through Open. (open_test.cpp checks that every other
// scheme reaches its backend, whose own suite runs in its folder.)
#include <memory>
#include <string>

#include "engine/contract_suite.h"
#include "rockpoint/open.h"

namespace {

// The store of the URL kScheme + a path in a fresh directory: a bare path
// when kScheme is empty, no path for "memory:". kHarnessName names it.
template <const char* kHarnessName, const char* kScheme>
class OpenHarness {
 public:
  static constexpr const char* kName = kHarnessName;
  OpenHarness() { Open(); }
  rockpoint::Checkpointer& store() { return *store_; }
  void Reopen() {
    if (std::string(kScheme) == "memory:") return;  // nothing would remain.
    RP_REQUIRE_OK(store_->Close());
    store_.reset();
    Open();
  }

 private:
  std::string url() const {
    if (std::string(kScheme) == "memory:") return "memory:";
    if (std::string(kScheme).empty()) return dir_.Sub("store");
    return std::string(kScheme) + dir_.Sub("store");
  }
  void Open() {
    rockpoint::StoreOptions options;
    // Durability across a process crash is not what the suite checks.
    options.sync_writes = false;
    store_ = rockpoint::testing::Unwrap(rockpoint::Open(url(), options));
  }

  rockpoint::testing::TempDir dir_;
  std::unique_ptr<rockpoint::Checkpointer> store_;
};

constexpr char kBarePath[] = "open-bare-path";
constexpr char kNoScheme[] = "";
constexpr char kMemoryUrl[] = "open-memory-url";
constexpr char kMemory[] = "memory:";

using BarePathHarness = OpenHarness<kBarePath, kNoScheme>;
using MemoryUrlHarness = OpenHarness<kMemoryUrl, kMemory>;

}  // namespace

ROCKPOINT_CONTRACT_SUITE(BarePathHarness);
ROCKPOINT_CONTRACT_SUITE(MemoryUrlHarness);
