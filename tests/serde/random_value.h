// Seeded generators of random Values and byte strings for the serde tests.
//
// Values cover every kind, the msgpack length and integer boundaries, strings
// with NULs and invalid UTF-8, int64 extremes, -0.0, infinities and NaN.
// Deterministic for a given seed. Thread-safety: one generator per thread.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "rockpoint/value.h"

namespace rockpoint::serde::testing {

class RandomValues {
 public:
  explicit RandomValues(uint64_t seed) : rng_(seed) {}

  uint64_t Uniform(uint64_t n) { return rng_() % n; }  // in [0, n).
  bool OneIn(uint64_t n) { return Uniform(n) == 0; }

  // Random bytes of a length biased to small sizes and msgpack boundaries.
  std::string Bytes() {
    static constexpr size_t kBoundaries[] = {0,   1,   15,  16,  31,    32,
                                             255, 256, 257, 300, 65535, 65536};
    size_t length =
        OneIn(20) ? kBoundaries[Uniform(std::size(kBoundaries))] : Uniform(24);
    std::string out(length, '\0');
    for (char& c : out) {
      c = OneIn(4) ? '\0' : static_cast<char>(Uniform(256));
    }
    return out;
  }

  int64_t Int() {
    static constexpr int64_t kEdges[] = {0,
                                         1,
                                         -1,
                                         31,
                                         32,
                                         127,
                                         128,
                                         255,
                                         256,
                                         65535,
                                         65536,
                                         -32,
                                         -33,
                                         -128,
                                         -129,
                                         -32768,
                                         -32769,
                                         4294967295,
                                         4294967296,
                                         -2147483648LL,
                                         -2147483649LL,
                                         std::numeric_limits<int64_t>::max(),
                                         std::numeric_limits<int64_t>::min()};
    if (OneIn(2)) return kEdges[Uniform(std::size(kEdges))];
    return static_cast<int64_t>(rng_()) >> Uniform(64);
  }

  double Double() {
    switch (Uniform(8)) {
      case 0:
        return -0.0;
      case 1:
        return std::numeric_limits<double>::quiet_NaN();
      case 2:
        return OneIn(2) ? std::numeric_limits<double>::infinity()
                        : -std::numeric_limits<double>::infinity();
      case 3:
        return static_cast<double>(static_cast<int64_t>(Uniform(2001)) - 1000);
      case 4:
        return std::numeric_limits<double>::denorm_min();
      default: {
        uint64_t bits = rng_();
        double d;
        std::memcpy(&d, &bits, sizeof(d));
        return d;  // any bit pattern, NaN payloads included.
      }
    }
  }

  // A random Value nested at most `depth` containers deep.
  Value Any(int depth = 4) {
    int kinds = depth > 0 ? 9 : 6;
    switch (Uniform(kinds)) {
      case 0:
        return Value();
      case 1:
        return Value(OneIn(2));
      case 2:
        return Value(Int());
      case 3:
        return Value(Double());
      case 4:
        return Value(Bytes());
      case 5:
        return Value(serde::Bytes{Bytes()});
      case 6: {
        Value::Array array;
        size_t n = OneIn(30) ? 16 + Uniform(8) : Uniform(5);
        for (size_t i = 0; i < n; ++i) array.push_back(Any(depth - 1));
        return Value(std::move(array));
      }
      case 7: {
        Value::Map map;
        size_t n = OneIn(30) ? 16 + Uniform(8) : Uniform(5);
        for (size_t i = 0; i < n; ++i) map.emplace(Bytes(), Any(depth - 1));
        return Value(std::move(map));
      }
      default: {
        static constexpr size_t kExtSizes[] = {0, 1, 2, 3, 4, 8, 16, 17, 300};
        std::string data(kExtSizes[Uniform(std::size(kExtSizes))], '\0');
        for (char& c : data) c = static_cast<char>(Uniform(256));
        return Value(Ext{static_cast<int8_t>(Uniform(256) - 128), data});
      }
    }
  }

 private:
  std::mt19937_64 rng_;
};

// True if `value` holds a NaN anywhere (NaN != NaN, so == cannot compare it).
inline bool ContainsNaN(const Value& value) {
  if (value.is_double()) return std::isnan(value.as_double());
  if (value.is_array()) {
    for (const Value& element : value.as_array()) {
      if (ContainsNaN(element)) return true;
    }
  }
  if (value.is_map()) {
    for (const auto& [key, element] : value.as_map()) {
      if (ContainsNaN(element)) return true;
    }
  }
  return false;
}

}  // namespace rockpoint::serde::testing
