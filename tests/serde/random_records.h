// Seeded generators of random stored records for the serde tests.
// Thread-safety: one generator per thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
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

}  // namespace rockpoint::serde::testing
