// Retention conversions (convert.h).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "native/convert.h"
#include "native/errors.h"

namespace rockpoint::py {

namespace {

// A count of the tuple as the policy's size_t. A negative one has no such
// value: InvalidArgumentError in the words ValidateRetentionPolicy uses for 0.
size_t CountFromPy(int64_t count, const char* field) {
  if (count < 0) {
    throw EngineError(Status::InvalidArgument(
        std::string(field) + " must be >= 1, got " + std::to_string(count)));
  }
  return static_cast<size_t>(count);
}

}  // namespace

RetentionPolicy PolicyFromPy(nb::handle spec) {
  using Spec = std::tuple<std::optional<int64_t>, std::optional<int64_t>,
                          std::optional<int64_t>, int64_t, int64_t>;
  Spec fields;
  if (!nb::try_cast(spec, fields)) {
    throw nb::type_error(
        "retention must be a (max_idle, max_age, keep_last, sweep_interval, "
        "sweep_batch_threads) tuple of ints and None");
  }
  const auto& [max_idle, max_age, keep_last, interval_ms, batch] = fields;
  RetentionPolicy policy;
  if (max_idle) policy.max_idle = std::chrono::seconds(*max_idle);
  if (max_age) policy.max_age = std::chrono::seconds(*max_age);
  if (keep_last) policy.keep_last = CountFromPy(*keep_last, "keep_last");
  policy.sweep_interval = std::chrono::milliseconds(interval_ms);
  policy.sweep_batch_threads = CountFromPy(batch, "sweep_batch_threads");
  return policy;
}

void ValidatePolicy(nb::handle spec) {
  ThrowIfError(ValidateRetentionPolicy(PolicyFromPy(spec)));
}

RetentionTime TimeFromPy(int64_t micros) {
  using std::chrono::microseconds;
  constexpr int64_t kLimit =
      std::chrono::duration_cast<microseconds>(RetentionTime::duration::max())
          .count();
  if (micros > kLimit || micros < -kLimit) {
    throw nb::value_error(
        "now is outside the engine clock's range (the years 1678 to 2261)");
  }
  return RetentionTime(std::chrono::duration_cast<RetentionTime::duration>(
      microseconds(micros)));
}

nb::dict ReportToPy(const RetentionReport& report) {
  nb::dict out;
  out["threads_examined"] = report.threads_examined;
  out["threads_emptied"] = report.threads_emptied;
  out["checkpoints_expired"] = report.checkpoints_expired;
  out["checkpoints_hidden"] = report.checkpoints_hidden;
  out["bytes"] = report.bytes;
  return out;
}

}  // namespace rockpoint::py
