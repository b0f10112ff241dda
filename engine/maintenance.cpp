// The defaults of Maintenance (rockpoint/maintenance.h): NotSupported,
// naming the backend; and VerifyReport's bookkeeping.
#include "rockpoint/maintenance.h"

#include <string>
#include <utility>

namespace rockpoint {
namespace {

Status Unsupported(const Maintenance& maintenance, std::string_view what) {
  return Status::NotSupported(std::string(what) + " is not supported by a " +
                              std::string(BackendName(maintenance.backend())) +
                              " store");
}

}  // namespace

void VerifyReport::Add(std::string severity, std::string check, std::string key,
                       std::string detail) {
  (severity == "error" ? errors : warnings)++;
  if (problems.size() < kMaxProblems) {
    problems.push_back({std::move(severity), std::move(check), std::move(key),
                        std::move(detail)});
  }
}

Result<VerifyReport> Maintenance::VerifyRecords(const VerifyProgressFn&) {
  return Unsupported(*this, "a raw record check");
}

Result<StoreFigures> Maintenance::Figures() {
  return Unsupported(*this, "figures");
}

Status Maintenance::Compact() { return Unsupported(*this, "compact"); }

Status Maintenance::ScanRaw(std::string_view, std::string_view,
                            const RawVisitor&) {
  return Unsupported(*this, "a raw scan");
}

Result<std::vector<WriteLocation>> Maintenance::FindOrphanWrites() {
  return Unsupported(*this, "an orphan-write scan");
}

}  // namespace rockpoint
