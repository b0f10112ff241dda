// Fuzz target: the tuple key decoder (keys/tuple.h, keys/FORMAT.md).
//
// For any input:
//   * Decode() gives a tuple whose Encode() is the input itself (each valid
//     key has one tuple and each tuple one encoding), or Corruption;
//   * a TupleReader reading element by element reads the same elements and
//     fails exactly where Decode() fails; a failed read, and a typed read of
//     the wrong kind, leaves the reader where it was;
//   * Describe() renders it, whatever it is.
// The input also splits into two keys a and b (the first byte picks where):
// when both decode, byte order equals tuple order, and b lies in
// [a, TuplePrefixUpperBound(a)) exactly when b's tuple starts with a's.
#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "keys/tuple.h"

namespace rockpoint::keys {
namespace {

// -1, 0 or 1.
int Sign(std::strong_ordering order) { return order < 0 ? -1 : order > 0; }
int Sign(int compared) { return compared < 0 ? -1 : compared > 0; }

// A typed read of a kind other than `element`'s: must fail and leave the
// reader where it was.
void CheckMistypedRead(TupleReader& reader, const Element& element) {
  const size_t before = reader.position();
  Status status;
  if (std::holds_alternative<int64_t>(element)) {
    std::string text;
    status = reader.ReadString(&text);
  } else {
    int64_t number = 0;
    status = reader.ReadInt(&number);
  }
  FUZZ_CHECK(status.IsCorruption(), status.ToString());
  FUZZ_CHECK(reader.position() == before, "a failed read moved the reader");
}

// Reads `encoded` element by element and checks it against Decode().
void CheckReader(std::string_view encoded, const Result<Tuple>& decoded) {
  TupleReader reader(encoded);
  Tuple read;
  while (!reader.done()) {
    const size_t before = reader.position();
    Element element;
    const Status status = reader.Read(&element);
    if (!status.ok()) {
      FUZZ_CHECK(status.IsCorruption(), status.ToString());
      FUZZ_CHECK(reader.position() == before, "a failed read moved the reader");
      FUZZ_CHECK(!decoded.ok(),
                 "reader failed where Decode succeeded: " + status.ToString());
      return;
    }
    FUZZ_CHECK(reader.position() > before, "a read consumed nothing");
    TupleReader again(encoded.substr(before));
    CheckMistypedRead(again, element);
    read.push_back(std::move(element));
  }
  FUZZ_CHECK(decoded.ok(), "reader read every element, Decode failed: " +
                               decoded.status().ToString());
  FUZZ_CHECK(read == *decoded, "reader and Decode read different tuples");
}

// The single-key properties; returns the decoded tuple.
Result<Tuple> CheckKey(std::string_view encoded) {
  Result<Tuple> decoded = Decode(encoded);
  if (decoded.ok()) {
    FUZZ_CHECK(Encode(*decoded) == encoded,
               "re-encoding differs: " + Describe(encoded, 0));
  } else {
    FUZZ_CHECK(decoded.status().IsCorruption(), decoded.status().ToString());
    FUZZ_CHECK(!decoded.status().message().empty(), "empty error message");
  }
  CheckReader(encoded, decoded);
  const std::string shown = Describe(encoded);
  FUZZ_CHECK(!shown.empty(), "empty rendering");
  FUZZ_CHECK(decoded.ok() == (shown.rfind("<not a tuple", 0) != 0),
             "Describe disagrees with Decode: " + shown);
  return decoded;
}

// Byte order against tuple order, and the prefix bound.
void CheckPair(std::string_view a, const Tuple& ta, std::string_view b,
               const Tuple& tb) {
  FUZZ_CHECK(Sign(a.compare(b)) == Sign(ta <=> tb),
             "byte order differs from tuple order: " + Describe(a, 0) + " vs " +
                 Describe(b, 0));
  const bool extends =
      tb.size() >= ta.size() && std::equal(ta.begin(), ta.end(), tb.begin());
  const std::string upper = TuplePrefixUpperBound(a);
  const bool in_range = a <= b && b < std::string_view(upper);
  FUZZ_CHECK(extends == in_range, "prefix range wrong for " + Describe(a, 0) +
                                      " and " + Describe(b, 0));
  if (b.starts_with(a)) {
    const std::string successor = PrefixSuccessor(a);
    FUZZ_CHECK(successor.empty() || b < std::string_view(successor),
               "PrefixSuccessor is not above " + Describe(b, 0));
  }
}

}  // namespace
}  // namespace rockpoint::keys

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rockpoint::keys;
  using rockpoint::Result;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  [[maybe_unused]] const Result<Tuple> whole = CheckKey(input);
  if (size < 2) return 0;
  const size_t split = 1 + data[0] % (size - 1);
  const std::string_view a = input.substr(1, split - 1);
  const std::string_view b = input.substr(split);
  Result<Tuple> ta = CheckKey(a);
  Result<Tuple> tb = CheckKey(b);
  if (ta.ok() && tb.ok()) {
    CheckPair(a, *ta, b, *tb);
    CheckPair(b, *tb, a, *ta);
  }
  return 0;
}
