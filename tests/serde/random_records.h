// Seeded generators of random stored records for the serde tests.
// Thread-safety: one generator per thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "serde/random_value.h"
#include "serde/records.h"

namespace rockpoint::serde::testing {

class RandomRecords {
 public:
  explicit RandomRecords(uint64_t seed) : random_(seed) {}

  ChannelVersion Version() {
    if (random_.OneIn(2)) return random_.Int();
    return random_.Bytes();
  }

  std::map<std::string, ChannelVersion> Versions() {
    std::map<std::string, ChannelVersion> versions;
    for (size_t n = random_.Uniform(6); n > 0; --n) {
      versions[random_.Bytes()] = Version();
    }
    return versions;
  }

  std::vector<std::string> Strings() {
    std::vector<std::string> strings(random_.Uniform(5));
    for (std::string& s : strings) s = random_.Bytes();
    return strings;
  }

  TypedValue Typed() { return TypedValue{random_.Bytes(), random_.Bytes()}; }

  CheckpointRecord Checkpoint() {
    CheckpointRecord record;
    if (random_.OneIn(3)) record.header.parent_id = random_.Bytes();
    record.header.channel_versions = Versions();
    record.header.stored_channels = Strings();
    std::sort(record.header.stored_channels.begin(),
              record.header.stored_channels.end());
    record.header.hidden = random_.OneIn(4);
    record.v = random_.Int();
    record.ts = random_.Bytes();
    for (size_t n = random_.Uniform(4); n > 0; --n) {
      record.versions_seen[random_.Bytes()] = Versions();
    }
    if (random_.OneIn(2)) record.updated_channels = Strings();
    if (random_.OneIn(3)) {
      record.pending_sends.emplace();
      for (size_t n = random_.Uniform(3); n > 0; --n) {
        record.pending_sends->push_back(Typed());
      }
    }
    Value::Map metadata;
    for (size_t n = random_.Uniform(5); n > 0; --n) {
      metadata.emplace(random_.Bytes(), random_.Any(3));
    }
    record.metadata = Value(std::move(metadata));
    return record;
  }

  BlobRecord Blob() {
    if (random_.OneIn(4)) return BlobRecord{true, {}};
    return BlobRecord{false, Typed()};
  }

  WriteRecord Write() { return WriteRecord{random_.Bytes(), Typed()}; }

  RandomValues& values() { return random_; }

 private:
  RandomValues random_;
};

// Calls check(bytes) on inputs a decoder must handle without crashing:
// prefixes of every encoding in `encoded` (about 300 cut points each), each
// with 8 random single-bit flips, and 5000 random byte strings that start
// with the record format version.
template <typename Check>
void ForEachMangled(const std::vector<std::string>& encoded,
                    RandomValues& values, const Check& check) {
  for (const std::string& record : encoded) {
    const size_t step = record.size() / 300 + 1;
    for (size_t n = 0; n < record.size(); n += step) {
      check(std::string_view(record).substr(0, n));
    }
    for (int flip = 0; flip < 8; ++flip) {
      std::string mutated = record;
      const size_t bit = values.Uniform(mutated.size() * 8);
      mutated[bit / 8] = static_cast<char>(mutated[bit / 8] ^ (1 << (bit % 8)));
      check(std::string_view(mutated));
    }
  }
}

template <typename Check>
void ForEachRandomRecordBytes(RandomValues& values, const Check& check) {
  for (int i = 0; i < 5000; ++i) {
    std::string bytes(1, static_cast<char>(kRecordFormatVersion));
    if (values.OneIn(2)) bytes.push_back(static_cast<char>(values.Uniform(40)));
    for (size_t n = values.Uniform(40); n > 0; --n) {
      bytes.push_back(static_cast<char>(values.Uniform(256)));
    }
    check(std::string_view(bytes));
  }
}

}  // namespace rockpoint::serde::testing
