#include "runtime/ids.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

#include "rockpoint/checkpointer.h"

namespace rockpoint::runtime {
namespace {

uint64_t RandomU64() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return engine();
}

// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" of two 64-bit halves.
std::string FormatUuid(uint64_t high, uint64_t low) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%08x-%04x-%04x-%04x-%012llx",
                static_cast<unsigned>(high >> 32),
                static_cast<unsigned>((high >> 16) & 0xffff),
                static_cast<unsigned>(high & 0xffff),
                static_cast<unsigned>(low >> 48),
                static_cast<unsigned long long>(low & 0xffffffffffffULL));
  return buffer;
}

uint64_t Mix(uint64_t x) {  // splitmix64 finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// FNV-1a over length-prefixed parts, in two lanes with different seeds.
class Hasher {
 public:
  void Add(std::string_view part) {
    AddLength(part.size());
    for (char c : part) AddByte(static_cast<uint8_t>(c));
  }
  std::string Uuid() const { return FormatUuid(Mix(a_), Mix(b_ ^ a_)); }

 private:
  void AddLength(uint64_t n) {
    for (int i = 0; i < 8; ++i) AddByte(static_cast<uint8_t>(n >> (8 * i)));
  }
  void AddByte(uint8_t byte) {
    a_ = (a_ ^ byte) * 0x100000001b3ULL;
    b_ = (b_ ^ byte) * 0x00000100000001b3ULL + 0x9e3779b97f4a7c15ULL;
  }
  uint64_t a_ = 0xcbf29ce484222325ULL;
  uint64_t b_ = 0x84222325cbf29ce4ULL;
};

}  // namespace

std::string NewCheckpointId() {
  static std::atomic<uint64_t> last{0};
  uint64_t now = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
  uint64_t previous = last.load();
  uint64_t next;
  do {
    next = now > previous ? now : previous + 1;
  } while (!last.compare_exchange_weak(previous, next));
  return FormatUuid(next, RandomU64());
}

std::string NewRunId() { return FormatUuid(RandomU64(), RandomU64()); }

std::string NowIso8601() {
  auto now = std::chrono::system_clock::now();
  auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                    now.time_since_epoch())
                    .count();
  std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ",
                utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                utc.tm_min, utc.tm_sec, static_cast<int>(micros % 1000000));
  return buffer;
}

std::string TaskId(std::string_view checkpoint_id, std::string_view ns,
                   int64_t step, std::string_view node, std::string_view path) {
  Hasher hasher;
  hasher.Add("task");
  hasher.Add(checkpoint_id);
  hasher.Add(ns);
  hasher.Add(std::to_string(step));
  hasher.Add(node);
  hasher.Add(path);
  return hasher.Uuid();
}

std::string CommandTaskId() { return "command-" + NewCheckpointId(); }

std::string PullTaskPath(std::string_view node) {
  return "~__pregel_pull, " + std::string(node);
}

std::string PushTaskPath(size_t index) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%010zu", index);
  return std::string("~__pregel_push, ") + buffer;
}

bool VersionLess(const ChannelVersion& a, const ChannelVersion& b) {
  const auto* ai = std::get_if<int64_t>(&a);
  const auto* bi = std::get_if<int64_t>(&b);
  if (ai && bi) return *ai < *bi;
  if (ai) return true;
  if (bi) return false;
  return std::get<std::string>(a) < std::get<std::string>(b);
}

Result<ChannelVersion> NextVersion(const std::optional<ChannelVersion>& max) {
  if (!max) return GetNextVersion(ChannelVersion{std::string("0")});
  if (const auto* number = std::get_if<int64_t>(&*max)) {
    if (*number < 0) return GetNextVersion(ChannelVersion{std::string("0")});
    return GetNextVersion(ChannelVersion{std::to_string(*number)});
  }
  return GetNextVersion(max);
}

}  // namespace rockpoint::runtime
