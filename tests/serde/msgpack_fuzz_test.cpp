// Adversarial input for DecodeMsgpack: truncations, random bytes, bit flips,
// forged lengths and nesting bombs must each give a whole Value or
// Corruption; never a crash, a partial value or a huge allocation.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rockpoint/msgpack_codec.h"
#include "serde/hex.h"
#include "serde/random_value.h"

namespace rockpoint::serde {
namespace {

using testing::Hex;
using testing::RandomValues;

// Prefix lengths to try for an encoding of `size` bytes: all of them for
// small encodings, an even spread plus the tail for big ones.
std::vector<size_t> PrefixLengths(size_t size) {
  constexpr size_t kAll = 2048;
  std::vector<size_t> lengths;
  if (size <= kAll) {
    for (size_t n = 0; n < size; ++n) lengths.push_back(n);
    return lengths;
  }
  for (size_t n = 0; n < size - 64; n += size / kAll) lengths.push_back(n);
  for (size_t n = size - 64; n < size; ++n) lengths.push_back(n);
  return lengths;
}

// Decoding either fails with Corruption or yields a Value that re-encodes
// and decodes to the same bytes.
void CheckOkOrCorruption(std::string_view bytes) {
  Result<Value> decoded = DecodeMsgpack(bytes);
  if (!decoded.ok()) {
    CHECK(decoded.status().IsCorruption());
    CHECK_FALSE(decoded.status().message().empty());
    return;
  }
  std::string canonical = EncodeMsgpack(*decoded);
  Result<Value> again = DecodeMsgpack(canonical);
  REQUIRE(again.ok());
  CHECK(EncodeMsgpack(*again) == canonical);
}

TEST_CASE("every truncation of a valid encoding is Corruption") {
  RandomValues random(7);
  size_t checked = 0;
  for (int i = 0; i < 150; ++i) {
    std::string encoded = EncodeMsgpack(random.Any());
    for (size_t n : PrefixLengths(encoded.size())) {
      Status status =
          DecodeMsgpack(std::string_view(encoded).substr(0, n)).status();
      CHECK_MESSAGE(status.IsCorruption(), "prefix ", n, " of ",
                    encoded.size());
      ++checked;
    }
  }
  CHECK(checked > 1000);
}

TEST_CASE("random byte strings decode to a Value or Corruption") {
  RandomValues random(11);
  // Bias toward container and length type bytes so that parsing gets deep.
  static constexpr uint8_t kInteresting[] = {
      0x91, 0x92, 0x81, 0xdc, 0xdd, 0xde, 0xdf, 0xd9, 0xda, 0xdb, 0xc4,
      0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xd4, 0xd8, 0xa1, 0xc0, 0xcf, 0xca};
  for (int i = 0; i < 20000; ++i) {
    std::string bytes(random.Uniform(48), '\0');
    for (char& c : bytes) {
      c = static_cast<char>(
          random.OneIn(2)
              ? kInteresting[random.Uniform(std::size(kInteresting))]
              : random.Uniform(256));
    }
    CheckOkOrCorruption(bytes);
  }
}

TEST_CASE("random bit flips of valid encodings decode or are Corruption") {
  RandomValues random(13);
  for (int i = 0; i < 400; ++i) {
    std::string encoded = EncodeMsgpack(random.Any(3));
    for (int flip = 0; flip < 8; ++flip) {
      std::string mutated = encoded;
      size_t bit = random.Uniform(mutated.size() * 8);
      mutated[bit / 8] = static_cast<char>(mutated[bit / 8] ^ (1 << (bit % 8)));
      CheckOkOrCorruption(mutated);
    }
  }
}

TEST_CASE("forged huge lengths in a tiny buffer are Corruption") {
  for (const char* hex : {
           "dbffffffff",        // str32
           "dbffffffff61",      // str32 with one byte of body
           "c6ffffffff",        // bin32
           "c9ffffffff01",      // ext32
           "c9fffffffe0100",    // ext32, one below the overflow check
           "ddffffffff",        // array32
           "ddffffffffc0",      // array32 with one element
           "dfffffffff",        // map32
           "dfffffffffa161c0",  // map32 with one pair
           "dcffff",            // array16
           "deffff",            // map16
           "91ddffffffff",      // nested array32
           "81a161dfffffffff",  // map32 as a map value
       }) {
    CAPTURE(hex);
    Status status = DecodeMsgpack(Hex(hex)).status();
    CHECK(status.IsCorruption());
  }
}

TEST_CASE("forged counts are bounded by the input length, cumulatively") {
  // Each array claims 65536 elements: one fits in the buffer, two do not.
  std::string bytes;
  for (int i = 0; i < 200; ++i) bytes += Hex("dd00010000");
  bytes += std::string(70000, '\xc0');
  Status status = DecodeMsgpack(bytes).status();
  CHECK(status.IsCorruption());
  CHECK(status.message().find("cannot fit") != std::string::npos);
}

TEST_CASE("nesting bombs are Corruption without deep recursion") {
  const std::string arrays(100000, '\x91');
  CHECK(DecodeMsgpack(arrays).status().IsCorruption());
  CHECK(DecodeMsgpack(arrays + "\xc0").status().IsCorruption());
  std::string maps;
  for (int i = 0; i < 100000; ++i) maps += "\x81\xa0";
  CHECK(DecodeMsgpack(maps).status().IsCorruption());
  std::string mixed;
  for (int i = 0; i < 50000; ++i) mixed += (i % 2) ? "\x91" : "\x81\xa1k";
  CHECK(DecodeMsgpack(mixed).status().IsCorruption());
}

}  // namespace
}  // namespace rockpoint::serde
