// Property tests of the tuple codec over seeded random tuples: round trips,
// byte order equals tuple order, tuple-prefix ranges, truncations and garbage
// input never crash and decode only to what they encode.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "keys/tuple.h"

namespace rockpoint::keys {
namespace {

// Random tuples biased towards the hard cases: shared prefixes, NUL and 0xFF
// bytes, integers at byte-length boundaries.
class TupleGenerator {
 public:
  explicit TupleGenerator(uint32_t seed) : rng_(seed) {}

  size_t Pick(size_t n) {  // Uniform in [0, n).
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng_);
  }

  std::string RandomBytes(size_t max_size) {
    std::string out(Pick(max_size + 1), '\0');
    if (Pick(2) == 0) {
      static constexpr char kAlphabet[] = {'\x00', '\x01', 'a',
                                           'b',    '\xfe', '\xff'};
      for (char& c : out) c = kAlphabet[Pick(sizeof(kAlphabet))];
    } else {
      for (char& c : out) c = static_cast<char>(Pick(256));
    }
    return out;
  }

  int64_t RandomInt() {
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    switch (Pick(3)) {
      case 0: {  // Around a byte-length boundary.
        const int shift = 8 * static_cast<int>(Pick(8));
        const int64_t base = int64_t{1} << shift;
        const int64_t value = base - 1 + static_cast<int64_t>(Pick(3));
        return Pick(2) == 0 ? value : -value;
      }
      case 1: {
        static constexpr int64_t kEdges[] = {kMin, kMin + 1, kMax, kMax - 1,
                                             0,    -1,       1};
        return kEdges[Pick(std::size(kEdges))];
      }
      default: {  // Random magnitude of random width.
        const uint64_t bits = (uint64_t{rng_()} << 32) | rng_();
        return static_cast<int64_t>(bits >> Pick(64));
      }
    }
  }

  Element RandomElement() {
    switch (Pick(4)) {
      case 0:
        return std::monostate{};
      case 1:
        return Bytes{RandomBytes(Pick(4) == 0 ? 40 : 5)};
      case 2:
        return RandomBytes(Pick(4) == 0 ? 40 : 5);
      default:
        return RandomInt();
    }
  }

  Tuple RandomTuple(size_t max_size) {
    Tuple tuple(Pick(max_size + 1));
    for (Element& element : tuple) element = RandomElement();
    return tuple;
  }

  // A tuple close to `tuple` in order: equal, cut, extended, or one element
  // replaced or nudged.
  Tuple Neighbour(const Tuple& tuple) {
    Tuple out = tuple;
    switch (Pick(6)) {
      case 0:
        return RandomTuple(5);
      case 1:
        out.resize(Pick(out.size() + 1));
        return out;
      case 2:
        for (size_t n = 1 + Pick(2); n > 0; --n) out.push_back(RandomElement());
        return out;
      case 3:
        if (!out.empty()) out[Pick(out.size())] = RandomElement();
        return out;
      case 4:
        if (!out.empty()) Nudge(&out[Pick(out.size())]);
        return out;
      default:
        return out;
    }
  }

 private:
  void Nudge(Element* element) {
    if (auto* number = std::get_if<int64_t>(element)) {
      if (*number != std::numeric_limits<int64_t>::max()) ++*number;
    } else if (auto* text = std::get_if<std::string>(element)) {
      NudgeText(text);
    } else if (auto* bytes = std::get_if<Bytes>(element)) {
      NudgeText(&bytes->data);
    }
  }

  void NudgeText(std::string* text) {
    switch (Pick(3)) {
      case 0:
        text->push_back(Pick(2) == 0 ? '\0' : '\xff');
        break;
      case 1:
        if (!text->empty()) text->pop_back();
        break;
      default:
        if (!text->empty()) text->back() = static_cast<char>(Pick(256));
        break;
    }
  }

  std::mt19937 rng_;
};

int Sign(int64_t x) { return (x > 0) - (x < 0); }

int CompareUnsigned(std::string_view a, std::string_view b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const int diff = static_cast<uint8_t>(a[i]) - static_cast<uint8_t>(b[i]);
    if (diff != 0) return Sign(diff);
  }
  return Sign(static_cast<int64_t>(a.size()) - static_cast<int64_t>(b.size()));
}

// Kind order is type-code order: null 0x00 < bytes 0x01 < string 0x02 < int.
int KindRank(const Element& e) {
  if (std::holds_alternative<std::monostate>(e)) return 0;
  if (std::holds_alternative<Bytes>(e)) return 1;
  if (std::holds_alternative<std::string>(e)) return 2;
  return 3;
}

int CompareElements(const Element& a, const Element& b) {
  if (KindRank(a) != KindRank(b)) return Sign(KindRank(a) - KindRank(b));
  switch (KindRank(a)) {
    case 1:
      return CompareUnsigned(std::get<Bytes>(a).data, std::get<Bytes>(b).data);
    case 2:
      return CompareUnsigned(std::get<std::string>(a),
                             std::get<std::string>(b));
    case 3: {
      const int64_t x = std::get<int64_t>(a), y = std::get<int64_t>(b);
      return (x > y) - (x < y);
    }
    default:
      return 0;
  }
}

int CompareTuples(const Tuple& a, const Tuple& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (int c = CompareElements(a[i], b[i]); c != 0) return c;
  }
  return Sign(static_cast<int64_t>(a.size()) - static_cast<int64_t>(b.size()));
}

bool IsTuplePrefix(const Tuple& prefix, const Tuple& tuple) {
  return prefix.size() <= tuple.size() &&
         std::equal(prefix.begin(), prefix.end(), tuple.begin());
}

// The string payload of a bytes or string element, or nullptr.
const std::string* TextOf(const Element& e) {
  if (const auto* bytes = std::get_if<Bytes>(&e)) return &bytes->data;
  return std::get_if<std::string>(&e);
}

// What a byte prefix of Encode(whole) may decode to: a prefix tuple of
// `whole`, or one whose last element cuts a string of `whole` just before a
// NUL (the cut leaves "0x00" that reads as a terminator).
bool IsValidTruncation(const Tuple& part, const Tuple& whole) {
  if (IsTuplePrefix(part, whole)) return true;
  if (part.empty() || part.size() > whole.size()) return false;
  const size_t last = part.size() - 1;
  if (!std::equal(part.begin(), part.begin() + last, whole.begin())) {
    return false;
  }
  if (KindRank(part[last]) != KindRank(whole[last])) return false;
  const std::string* cut = TextOf(part[last]);
  const std::string* full = TextOf(whole[last]);
  return cut != nullptr && full != nullptr && cut->size() < full->size() &&
         full->compare(0, cut->size(), *cut) == 0 && (*full)[cut->size()] == 0;
}

// A decode attempt of arbitrary bytes: Corruption naming an offset, or a tuple
// whose encoding is exactly the input (one encoding per tuple). The input is
// copied to a buffer of exactly its size, so that AddressSanitizer sees any
// read past its end (a std::string has a NUL and spare capacity there).
void CheckDecodeIsStrict(const std::string& input, Result<Tuple>* decoded) {
  const std::vector<char> exact(input.begin(), input.end());
  *decoded = Decode(std::string_view(exact.data(), exact.size()));
  if (decoded->ok()) {
    REQUIRE(Encode(**decoded) == input);
  } else {
    REQUIRE(decoded->status().IsCorruption());
    REQUIRE(decoded->status().message().find("at byte offset") !=
            std::string::npos);
  }
}

TEST_CASE("random tuples round-trip through Encode/Decode and TupleReader") {
  TupleGenerator gen(20240601);
  for (int i = 0; i < 3000; ++i) {
    const Tuple tuple = gen.RandomTuple(8);
    const std::string encoded = Encode(tuple);
    Result<Tuple> decoded = Decode(encoded);
    REQUIRE(decoded.ok());
    REQUIRE(*decoded == tuple);

    TupleWriter writer;
    TupleReader reader(encoded);
    for (const Element& element : tuple) {
      writer.Add(element);
      REQUIRE_FALSE(reader.done());
      if (const auto* number = std::get_if<int64_t>(&element)) {
        int64_t read = 0;
        REQUIRE(reader.ReadInt(&read).ok());
        REQUIRE(read == *number);
      } else if (const auto* text = std::get_if<std::string>(&element)) {
        std::string read;
        REQUIRE(reader.ReadString(&read).ok());
        REQUIRE(read == *text);
      } else if (const auto* bytes = std::get_if<Bytes>(&element)) {
        std::string read;
        REQUIRE(reader.ReadBytes(&read).ok());
        REQUIRE(read == bytes->data);
      } else {
        REQUIRE(reader.ReadNull().ok());
      }
    }
    REQUIRE(reader.done());
    REQUIRE(writer.data() == encoded);
  }
}

TEST_CASE("byte order of encodings equals tuple order") {
  TupleGenerator gen(7);
  int less = 0, equal = 0, greater = 0;
  for (int i = 0; i < 6000; ++i) {
    const Tuple a = gen.RandomTuple(5);
    const Tuple b = gen.Neighbour(a);
    const int expected = CompareTuples(a, b);
    CAPTURE(Describe(Encode(a)));
    CAPTURE(Describe(Encode(b)));
    REQUIRE(CompareUnsigned(Encode(a), Encode(b)) == expected);
    REQUIRE(CompareUnsigned(Encode(b), Encode(a)) == -expected);
    (expected < 0 ? less : expected == 0 ? equal : greater)++;
  }
  // Both directions and ties were exercised.
  CHECK(less > 1000);
  CHECK(greater > 1000);
  CHECK(equal > 500);
}

TEST_CASE("a tuple's keys are exactly [Encode(t), TuplePrefixUpperBound)") {
  TupleGenerator gen(99);
  int inside = 0, outside = 0, byte_prefix_only = 0;
  for (int i = 0; i < 6000; ++i) {
    const Tuple prefix = gen.RandomTuple(4);
    const Tuple other = gen.Neighbour(gen.Neighbour(prefix));
    const std::string begin = Encode(prefix);
    const std::string end = TuplePrefixUpperBound(begin);
    const std::string key = Encode(other);
    const bool in_range = key >= begin && key < end;
    CAPTURE(Describe(begin));
    CAPTURE(Describe(key));
    REQUIRE(in_range == IsTuplePrefix(prefix, other));
    (in_range ? inside : outside)++;
    if (!in_range && key.starts_with(begin)) ++byte_prefix_only;
  }
  CHECK(inside > 1000);
  CHECK(outside > 1000);
  // Keys that start with the prefix's bytes but are not its extensions
  // (a string continued by NUL) occurred and were excluded.
  CHECK(byte_prefix_only > 10);
}

TEST_CASE("every truncation decodes to a prefix or is Corruption") {
  TupleGenerator gen(4242);
  int boundaries = 0, mid_element = 0;
  for (int i = 0; i < 400; ++i) {
    const Tuple tuple = gen.RandomTuple(6);
    const std::string encoded = Encode(tuple);
    std::vector<bool> is_boundary(encoded.size() + 1, false);
    for (size_t n = 0; n <= tuple.size(); ++n) {
      is_boundary[Encode(Tuple(tuple.begin(), tuple.begin() + n)).size()] =
          true;
    }
    for (size_t cut = 0; cut <= encoded.size(); ++cut) {
      const std::string part = encoded.substr(0, cut);
      Result<Tuple> decoded = Tuple{};
      CheckDecodeIsStrict(part, &decoded);
      CAPTURE(Describe(encoded));
      CAPTURE(cut);
      if (is_boundary[cut]) {
        ++boundaries;
        REQUIRE(decoded.ok());
        REQUIRE(IsTuplePrefix(*decoded, tuple));
        REQUIRE(Encode(*decoded).size() == cut);
      } else {
        ++mid_element;
        if (decoded.ok()) REQUIRE(IsValidTruncation(*decoded, tuple));
      }
    }
  }
  CHECK(boundaries > 1000);
  CHECK(mid_element > 1000);
}

TEST_CASE("random garbage never crashes and decodes only canonically") {
  std::mt19937 rng(31337);
  static constexpr uint8_t kInteresting[] = {0x00, 0x01, 0x02, 0x0c, 0x13, 0x14,
                                             0x15, 0x1c, 0x61, 0xfe, 0xff};
  int decoded_ok = 0, corrupt = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string input(rng() % 25, '\0');
    for (char& c : input) {
      c = static_cast<char>(rng() % 2 ? kInteresting[rng() % 11] : rng() % 256);
    }
    Result<Tuple> decoded = Tuple{};
    CheckDecodeIsStrict(input, &decoded);
    (decoded.ok() ? decoded_ok : corrupt)++;
    REQUIRE(Describe(input).starts_with(decoded.ok() ? "(" : "<not a tuple:"));
  }
  CHECK(decoded_ok > 500);
  CHECK(corrupt > 500);
}

TEST_CASE("single-byte damage to valid keys never crashes") {
  TupleGenerator gen(5);
  int corrupt = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string input = Encode(gen.RandomTuple(5));
    const size_t at = gen.Pick(input.size() + 1);
    switch (gen.Pick(3)) {
      case 0:
        input.insert(at, 1, static_cast<char>(gen.Pick(256)));
        break;
      case 1:
        if (at < input.size()) input.erase(at, 1);
        break;
      default:
        if (at < input.size()) input[at] = static_cast<char>(gen.Pick(256));
        break;
    }
    Result<Tuple> decoded = Tuple{};
    CheckDecodeIsStrict(input, &decoded);
    if (!decoded.ok()) ++corrupt;
  }
  CHECK(corrupt > 500);
}

}  // namespace
}  // namespace rockpoint::keys
