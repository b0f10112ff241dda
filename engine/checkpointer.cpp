// Free functions of the checkpointer interface: ListAll, ListAllThreads,
// GetNextVersion and SpecialWriteIndex (engine/checkpointer.h,
// engine/types.h).
#include "rockpoint/checkpointer.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>

namespace rockpoint {

Result<std::vector<CheckpointTuple>> Checkpointer::ListAll(
    const ListOptions& options) {
  RP_ASSIGN_OR_RETURN(std::unique_ptr<TupleCursor> cursor, List(options));
  std::vector<CheckpointTuple> tuples;
  while (true) {
    RP_ASSIGN_OR_RETURN(std::optional<CheckpointTuple> next, cursor->Next());
    if (!next) break;
    tuples.push_back(std::move(*next));
  }
  return tuples;
}

Result<std::vector<ThreadInfo>> Checkpointer::ListAllThreads() {
  std::vector<ThreadInfo> threads;
  ListThreadsOptions options;
  while (true) {
    RP_ASSIGN_OR_RETURN(ThreadPage page, ListThreads(options));
    for (ThreadInfo& info : page.threads) threads.push_back(std::move(info));
    if (!page.next_after) break;
    options.after = page.next_after;
  }
  return threads;
}

std::optional<int64_t> SpecialWriteIndex(std::string_view channel) {
  if (channel == kErrorChannel) return -1;
  if (channel == kScheduledChannel) return -2;
  if (channel == kInterruptChannel) return -3;
  if (channel == kResumeChannel) return -4;
  return std::nullopt;
}

namespace {

constexpr size_t kCounterDigits = 32;
constexpr size_t kSuffixDigits = 16;

// `digits` (a non-empty decimal number) plus one, without leading zeros.
std::string IncrementDecimal(std::string_view digits) {
  size_t first = digits.find_first_not_of('0');
  std::string number(first == std::string_view::npos ? "0"
                                                     : digits.substr(first));
  for (size_t i = number.size(); i-- > 0;) {
    if (number[i] != '9') {
      ++number[i];
      return number;
    }
    number[i] = '0';
  }
  return "1" + number;
}

// kSuffixDigits random decimal digits.
std::string RandomSuffix() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  std::uniform_int_distribution<uint64_t> digit(0, 9);
  std::string suffix(kSuffixDigits, '0');
  for (char& c : suffix) c = static_cast<char>('0' + digit(engine));
  return suffix;
}

}  // namespace

Result<ChannelVersion> GetNextVersion(
    const std::optional<ChannelVersion>& current) {
  if (!current) return ChannelVersion{int64_t{1}};
  if (const auto* number = std::get_if<int64_t>(&*current)) {
    if (*number == std::numeric_limits<int64_t>::max()) {
      return Status::InvalidArgument("current version " +
                                     std::to_string(*number) +
                                     " has no successor (int64 overflow)");
    }
    return ChannelVersion{*number + 1};
  }
  const std::string& text = std::get<std::string>(*current);
  std::string_view counter = text;
  if (size_t dot = counter.find('.'); dot != std::string_view::npos) {
    counter = counter.substr(0, dot);
  }
  bool decimal = !counter.empty();
  for (char c : counter) decimal = decimal && c >= '0' && c <= '9';
  if (!decimal) {
    return Status::InvalidArgument("current version \"" + text.substr(0, 64) +
                                   "\" has no decimal counter before '.'");
  }
  std::string next = IncrementDecimal(counter);
  if (next.size() < kCounterDigits) {
    next.insert(0, kCounterDigits - next.size(), '0');
  }
  return ChannelVersion{next + "." + RandomSuffix()};
}

}  // namespace rockpoint
