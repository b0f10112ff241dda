#include "engine/retention_rule.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace rockpoint {
namespace {

using std::chrono::seconds;

// Reads exactly `digits` decimal digits of `text` at `pos`, advancing it.
std::optional<int> ReadDigits(std::string_view text, size_t& pos,
                              size_t digits) {
  if (pos + digits > text.size()) return std::nullopt;
  int value = 0;
  for (size_t i = 0; i < digits; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  pos += digits;
  return value;
}

bool Expect(std::string_view text, size_t& pos, std::string_view options) {
  if (pos >= text.size() || options.find(text[pos]) == std::string_view::npos) {
    return false;
  }
  ++pos;
  return true;
}

// The fraction of a second at `pos` (after '.'), in microseconds; extra
// digits beyond the sixth are read and dropped.
std::optional<int64_t> ReadFraction(std::string_view text, size_t& pos) {
  const size_t start = pos;
  int64_t micros = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    if (pos - start < 6) micros = micros * 10 + (text[pos] - '0');
    ++pos;
  }
  if (pos == start) return std::nullopt;
  for (size_t n = pos - start; n < 6; ++n) micros *= 10;
  return micros;
}

// The UTC offset at `pos`: "Z", "+hh:mm", "-hh:mm", "+hhmm", or nothing.
std::optional<seconds> ReadOffset(std::string_view text, size_t& pos) {
  if (pos == text.size()) return seconds(0);
  if (text[pos] == 'Z' || text[pos] == 'z') {
    ++pos;
    return seconds(0);
  }
  if (text[pos] != '+' && text[pos] != '-') return std::nullopt;
  const int sign = text[pos++] == '-' ? -1 : 1;
  auto hours = ReadDigits(text, pos, 2);
  if (pos < text.size() && text[pos] == ':') ++pos;
  auto minutes = ReadDigits(text, pos, 2);
  if (!hours || !minutes || *hours > 23 || *minutes > 59) return std::nullopt;
  return seconds(sign * (*hours * 3600 + *minutes * 60));
}

// now - age, or the clock's first instant when that is before it.
std::optional<RetentionTime> Cutoff(const ExpiryRule& rule,
                                    const std::optional<seconds>& age) {
  if (!age) return std::nullopt;
  using std::chrono::duration_cast;
  const seconds since_min =
      duration_cast<seconds>(rule.now.time_since_epoch()) -
      duration_cast<seconds>(RetentionTime::min().time_since_epoch());
  if (*age >= since_min) return RetentionTime::min();
  return rule.now - *age;
}

// True when `ts` parses and is before `cutoff`.
bool OlderThan(std::string_view ts, RetentionTime cutoff) {
  const auto time = ParseCheckpointTs(ts);
  return time && *time < cutoff;
}

}  // namespace

std::optional<RetentionTime> ParseCheckpointTs(std::string_view ts) {
  size_t pos = 0;
  const auto year = ReadDigits(ts, pos, 4);
  if (!year || !Expect(ts, pos, "-")) return std::nullopt;
  const auto month = ReadDigits(ts, pos, 2);
  if (!month || !Expect(ts, pos, "-")) return std::nullopt;
  const auto day = ReadDigits(ts, pos, 2);
  if (!day || !Expect(ts, pos, "Tt ")) return std::nullopt;
  const auto hour = ReadDigits(ts, pos, 2);
  if (!hour || !Expect(ts, pos, ":")) return std::nullopt;
  const auto minute = ReadDigits(ts, pos, 2);
  if (!minute || !Expect(ts, pos, ":")) return std::nullopt;
  const auto second = ReadDigits(ts, pos, 2);
  if (!second) return std::nullopt;
  int64_t micros = 0;
  if (pos < ts.size() && (ts[pos] == '.' || ts[pos] == ',')) {
    ++pos;
    const auto fraction = ReadFraction(ts, pos);
    if (!fraction) return std::nullopt;
    micros = *fraction;
  }
  const auto offset = ReadOffset(ts, pos);
  if (!offset || pos != ts.size()) return std::nullopt;
  const std::chrono::year_month_day date{
      std::chrono::year(*year),
      std::chrono::month(static_cast<unsigned>(*month)),
      std::chrono::day(static_cast<unsigned>(*day))};
  // The years the clock holds (nanoseconds since 1970, 64 bits).
  if (*year < 1678 || *year > 2261) return std::nullopt;
  if (!date.ok() || *hour > 23 || *minute > 59 || *second > 60) {
    return std::nullopt;
  }
  const auto time = std::chrono::sys_days(date) + std::chrono::hours(*hour) +
                    std::chrono::minutes(*minute) + seconds(*second) +
                    std::chrono::microseconds(micros) - *offset;
  return std::chrono::time_point_cast<RetentionClock::duration>(time);
}

std::optional<seconds> ParseRetentionDuration(std::string_view text) {
  if (text.size() < 2) return std::nullopt;
  int64_t count = 0;
  const char* end = text.data() + text.size() - 1;
  const auto [ptr, error] = std::from_chars(text.data(), end, count);
  if (error != std::errc() || ptr != end || count < 0) return std::nullopt;
  int64_t unit = 0;
  switch (text.back()) {
    case 's':
      unit = 1;
      break;
    case 'm':
      unit = 60;
      break;
    case 'h':
      unit = 3600;
      break;
    case 'd':
      unit = 86400;
      break;
    case 'w':
      unit = int64_t{7} * 86400;
      break;
    default:
      return std::nullopt;
  }
  if (count > INT64_MAX / unit) return std::nullopt;
  return seconds(count * unit);
}

Status ValidateRetentionPolicy(const RetentionPolicy& policy) {
  RP_RETURN_IF_ERROR(ValidateExpiryRule(ExpiryRule::Of(policy, {})));
  if (policy.sweep_interval <= std::chrono::milliseconds(0)) {
    return Status::InvalidArgument("sweep_interval must be above 0");
  }
  if (policy.sweep_batch_threads == 0) {
    return Status::InvalidArgument("sweep_batch_threads must be >= 1, got 0");
  }
  return Status::OK();
}

Status ValidateExpiryRule(const ExpiryRule& rule) {
  if (!rule.max_idle && !rule.max_age && !rule.keep_last) {
    return Status::InvalidArgument(
        "retention policy sets none of max_idle, max_age and keep_last");
  }
  if (rule.max_idle && *rule.max_idle < seconds(0)) {
    return Status::InvalidArgument("max_idle must not be negative");
  }
  if (rule.max_age && *rule.max_age < seconds(0)) {
    return Status::InvalidArgument("max_age must not be negative");
  }
  if (rule.keep_last && *rule.keep_last == 0) {
    return Status::InvalidArgument("keep_last must be >= 1, got 0");
  }
  return Status::OK();
}

RetentionReport& RetentionReport::operator+=(const RetentionReport& other) {
  threads_examined += other.threads_examined;
  threads_emptied += other.threads_emptied;
  checkpoints_expired += other.checkpoints_expired;
  checkpoints_hidden += other.checkpoints_hidden;
  bytes += other.bytes;
  return *this;
}

bool ThreadIsIdle(const std::vector<std::string_view>& newest_ts_per_ns,
                  const ExpiryRule& rule) {
  const auto cutoff = Cutoff(rule, rule.max_idle);
  if (!cutoff || newest_ts_per_ns.empty()) return false;
  for (std::string_view ts : newest_ts_per_ns) {
    if (!OlderThan(ts, *cutoff)) return false;
  }
  return true;
}

std::set<std::string> SurvivorsOf(
    const std::vector<AgedCheckpoint>& newest_first, bool thread_idle,
    const ExpiryRule& rule) {
  const bool ages = rule.max_idle || rule.max_age;
  const auto age_cutoff = Cutoff(rule, rule.max_age);
  std::set<std::string> survivors;
  for (size_t i = 0; i < newest_first.size(); ++i) {
    const AgedCheckpoint& checkpoint = newest_first[i];
    const bool in_floor = rule.keep_last && i < *rule.keep_last;
    bool expired;
    if (!ages) {
      expired = !in_floor;  // keep_last alone: the cap.
    } else {
      expired =
          !in_floor && (thread_idle ||
                        (age_cutoff && OlderThan(checkpoint.ts, *age_cutoff)));
    }
    if (!expired) survivors.emplace(checkpoint.id);
  }
  return survivors;
}

std::vector<NamespaceExpiry> PlanThreadExpiry(
    const std::vector<std::vector<AgedCheckpoint>>& namespaces,
    const ExpiryRule& rule, RetentionReport& report) {
  std::vector<std::string_view> newest_ts;
  for (const std::vector<AgedCheckpoint>& aged : namespaces) {
    if (!aged.empty()) newest_ts.push_back(aged.front().ts);
  }
  const bool idle = ThreadIsIdle(newest_ts, rule);
  std::vector<NamespaceExpiry> plan;
  bool any_survivor = false;
  for (const std::vector<AgedCheckpoint>& aged : namespaces) {
    NamespaceExpiry ns{SurvivorsOf(aged, idle, rule), {}};
    for (const AgedCheckpoint& checkpoint : aged) {
      std::string id(checkpoint.id);
      if (!ns.survivors.contains(id)) ns.expired.insert(std::move(id));
    }
    any_survivor = any_survivor || !ns.survivors.empty();
    report.checkpoints_expired += ns.expired.size();
    plan.push_back(std::move(ns));
  }
  if (!newest_ts.empty()) {
    ++report.threads_examined;
    if (!any_survivor) ++report.threads_emptied;
  }
  return plan;
}

uint64_t CountNeeded(const std::set<std::string>& expired,
                     const std::set<std::string>& needed) {
  uint64_t count = 0;
  for (const std::string& id : expired) count += needed.contains(id) ? 1 : 0;
  return count;
}

}  // namespace rockpoint
