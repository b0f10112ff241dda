// Tests of engine/rocksdb/read_keys.h: BlobKeyBatch builds, byte for byte,
// the keys rocksdb_layout::BlobKey builds, for awkward ids and versions.
#include "engine/rocksdb/read_keys.h"

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "engine/rocksdb/key_layout.h"

namespace rockpoint::rocksdb_layout {
namespace {

using namespace std::string_literals;

TEST_CASE("BlobKeyBatch keys equal BlobKey") {
  const std::vector<std::string> ids = {""s,
                                        "t"s,
                                        "\0"s,
                                        "a\0b"s,
                                        "\xff"s,
                                        "\x00\xff\x00"s,
                                        "ns:1"s,
                                        std::string(3000, '\0'),
                                        std::string(70, 'x')};
  const std::vector<serde::ChannelVersion> versions = {
      int64_t{0},
      int64_t{1},
      int64_t{-1},
      int64_t{255},
      int64_t{1} << 40,
      std::numeric_limits<int64_t>::min(),
      std::numeric_limits<int64_t>::max(),
      std::string(""),
      std::string("00000000000000000000000000000001.0.5"),
      std::string("\0\xff"s)};
  for (const std::string& thread : ids) {
    for (const std::string& ns : {""s, "sub\0graph"s, "\xff\xff"s}) {
      BlobKeyBatch batch(thread, ns, 2);  // grows past the expected count
      std::vector<std::string> expected;
      for (const std::string& channel : ids) {
        for (const serde::ChannelVersion& version : versions) {
          batch.Add(channel, version);
          expected.push_back(BlobKey(thread, ns, channel, version));
        }
      }
      REQUIRE(batch.size() == expected.size());
      const std::vector<rocksdb::Slice> slices = batch.slices();
      REQUIRE(slices.size() == expected.size());
      for (size_t i = 0; i < expected.size(); ++i) {
        CHECK(batch.key(i) == expected[i]);
        CHECK(slices[i].ToStringView() == expected[i]);
      }
    }
  }
}

TEST_CASE("an empty BlobKeyBatch has no keys") {
  BlobKeyBatch batch("thread", "", 0);
  CHECK(batch.size() == 0);
  CHECK(batch.slices().empty());
}

}  // namespace
}  // namespace rockpoint::rocksdb_layout
