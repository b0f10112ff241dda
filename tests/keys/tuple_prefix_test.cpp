// Prefix scans over tuple keys: the keys of thread T (tag "cp") are exactly
// the keys in [Encode(("cp", T)), TuplePrefixUpperBound(...)), for thread ids
// that are prefixes of one another in bytes; and PrefixSuccessor is the least
// upper bound of a raw byte prefix.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "keys/tuple.h"

namespace rockpoint::keys {
namespace {

using namespace std::string_literals;

std::vector<std::string> TrickyThreads() {
  std::string big = "a";  // 1 MB, every byte value, so many NULs and 0xFFs.
  for (size_t i = 0; big.size() < (1u << 20); ++i) {
    big.push_back(static_cast<char>(i % 256));
  }
  return {"a", "a:b", "a\0"s, "a\xff", "", big, "a\0b"s, "\0"s, "b"};
}

std::vector<std::string> TrickyNamespaces() {
  return {"", "\0"s, "n", "n:x", "n\xff"};
}

std::string ThreadPrefix(const std::string& thread) {
  return TupleWriter().AddString("cp").AddString(thread).Release();
}

std::string CheckpointKey(const std::string& thread, const std::string& ns,
                          const std::string& checkpoint_id) {
  return Encode({"cp"s, thread, ns, checkpoint_id});
}

bool InRange(const std::string& key, const std::string& begin,
             const std::string& end) {
  return key >= begin && key < end;
}

TEST_CASE("the prefix of one thread never matches another thread's keys") {
  const auto threads = TrickyThreads();
  struct Key {
    size_t thread;
    std::string bytes;
  };
  std::vector<Key> keys;
  for (size_t u = 0; u < threads.size(); ++u) {
    keys.push_back({u, Encode({"cp"s, threads[u]})});
    for (const std::string& ns : TrickyNamespaces()) {
      for (const std::string& id : {""s, "1ef"s, "\0"s, "\xff"s}) {
        keys.push_back({u, CheckpointKey(threads[u], ns, id)});
      }
    }
  }
  // Every (prefix thread, key thread) pair is checked, so both ways.
  for (size_t t = 0; t < threads.size(); ++t) {
    const std::string begin = ThreadPrefix(threads[t]);
    REQUIRE(begin == Encode({"cp"s, threads[t]}));
    const std::string end = TuplePrefixUpperBound(begin);
    for (const Key& key : keys) {
      CAPTURE(Describe(begin).substr(0, 40));
      CAPTURE(Describe(key.bytes).substr(0, 60));
      REQUIRE(InRange(key.bytes, begin, end) == (key.thread == t));
    }
  }
}

TEST_CASE("the prefix of one namespace never matches another's keys") {
  const auto threads = TrickyThreads();
  const auto namespaces = TrickyNamespaces();
  for (const std::string& thread : {threads[0], threads[2], threads[5]}) {
    for (size_t n = 0; n < namespaces.size(); ++n) {
      const std::string begin = Encode({"cp"s, thread, namespaces[n]});
      const std::string end = TuplePrefixUpperBound(begin);
      for (const std::string& other_thread : threads) {
        for (size_t m = 0; m < namespaces.size(); ++m) {
          const bool same = other_thread == thread && n == m;
          REQUIRE(InRange(CheckpointKey(other_thread, namespaces[m], "1ef"),
                          begin, end) == same);
        }
      }
    }
  }
}

TEST_CASE("a reverse seek from the upper bound finds the thread's last key") {
  const auto threads = TrickyThreads();
  std::set<std::string> keys;  // Ordered like a RocksDB column family.
  for (const std::string& thread : threads) {
    for (const std::string& id : {"1"s, "2"s, "2\0"s, "3"s}) {
      keys.insert(CheckpointKey(thread, "", id));
    }
  }
  for (const std::string& thread : threads) {
    const std::string begin = ThreadPrefix(thread);
    // SeekForPrev(bound): the greatest key below the bound.
    auto it = keys.lower_bound(TuplePrefixUpperBound(begin));
    REQUIRE(it != keys.begin());
    --it;
    REQUIRE(*it >= begin);
    CHECK(*it == CheckpointKey(thread, "", "3"));
  }
}

// Regression: a byte-prefix match on Encode(("cp", "a")) also matches the
// keys of thread "a\0"; TuplePrefixUpperBound is the bound to use.
TEST_CASE("byte prefix of thread a also covers thread a\\0") {
  const std::string begin = ThreadPrefix("a");
  const std::string other = CheckpointKey("a\0"s, "", "1ef");
  CHECK(other.starts_with(begin));
  CHECK(other < PrefixSuccessor(begin));
  CHECK_FALSE(InRange(other, begin, TuplePrefixUpperBound(begin)));
}

// All strings over {00, 01, fe, ff} of length <= 4.
std::vector<std::string> SmallStrings() {
  static constexpr char kAlphabet[] = {'\x00', '\x01', '\xfe', '\xff'};
  std::vector<std::string> out = {""};
  for (size_t begin = 0, length = 0; length < 4; ++length) {
    const size_t end = out.size();
    for (size_t i = begin; i < end; ++i) {
      for (char c : kAlphabet) out.push_back(out[i] + c);
    }
    begin = end;
  }
  return out;
}

TEST_CASE("PrefixSuccessor is the least upper bound of a byte prefix") {
  const auto candidates = SmallStrings();
  REQUIRE(candidates.size() == 341);
  std::mt19937 rng(11);
  for (int i = 0; i < 300; ++i) {
    std::string prefix(rng() % 5, '\0');
    for (char& c : prefix) {
      c = static_cast<char>(rng() % 2 ? 0xff : "\x00\x01\x7f\xfe"[rng() % 4]);
    }
    const std::string successor = PrefixSuccessor(prefix);
    CAPTURE(Describe(Encode({Bytes{prefix}})));
    if (successor.empty()) {
      REQUIRE(prefix.find_first_not_of('\xff') == std::string::npos);
      continue;
    }
    REQUIRE(prefix < successor);
    REQUIRE_FALSE(successor.starts_with(prefix));
    for (const std::string& other : candidates) {
      // Above every extension of the prefix...
      if (other.starts_with(prefix)) REQUIRE(other < successor);
      if ((prefix + other).size() > 0) REQUIRE(prefix + other < successor);
      // ...and nothing else lies between the prefix and the successor.
      if (other >= prefix && other < successor) {
        REQUIRE(other.starts_with(prefix));
      }
    }
  }
}

}  // namespace
}  // namespace rockpoint::keys
