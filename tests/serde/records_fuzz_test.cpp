// Adversarial input for the record decoders: every truncation, random bytes
// and bit flips give a whole record or Corruption, never a crash or a
// partial record; header-only decoding agrees with the full decode.
#include <doctest/doctest.h>

#include <string>

#include "serde/random_records.h"
#include "serde/records.h"

namespace rockpoint::serde {
namespace {

using testing::RandomRecords;

template <typename T>
void CheckOkOrCorruption(const Result<T>& result) {
  if (!result.ok()) {
    CHECK(result.status().IsCorruption());
    CHECK_FALSE(result.status().message().empty());
  }
}

// Runs every decoder on `bytes` and checks that they agree with each other.
void DecodeAll(std::string_view bytes) {
  Result<CheckpointRecord> checkpoint = DecodeCheckpointRecord(bytes);
  Result<CheckpointHeader> header = DecodeCheckpointHeader(bytes);
  CheckOkOrCorruption(checkpoint);
  CheckOkOrCorruption(header);
  if (checkpoint.ok()) {
    REQUIRE(header.ok());
    CHECK(*header == checkpoint->header);
    CHECK(checkpoint->metadata.is_map());
  }
  CheckOkOrCorruption(DecodeBlobRecord(bytes));
  CheckOkOrCorruption(DecodeWriteRecord(bytes));
}

TEST_CASE("every truncation of a record is Corruption") {
  RandomRecords random(5);
  for (int i = 0; i < 60; ++i) {
    std::string checkpoint = EncodeCheckpointRecord(random.Checkpoint());
    std::string blob = EncodeBlobRecord(random.Blob());
    std::string write = EncodeWriteRecord(random.Write());
    Result<CheckpointHeader> full_header = DecodeCheckpointHeader(checkpoint);
    REQUIRE(full_header.ok());
    // Prefixes of big records are sampled; small ones are tried in full.
    size_t step = checkpoint.size() / 1500 + 1;
    for (size_t n = 0; n < checkpoint.size(); n += step) {
      std::string_view prefix = std::string_view(checkpoint).substr(0, n);
      CHECK(DecodeCheckpointRecord(prefix).status().IsCorruption());
      // The header alone survives once all of it is present.
      Result<CheckpointHeader> header = DecodeCheckpointHeader(prefix);
      CheckOkOrCorruption(header);
      if (header.ok()) CHECK(*header == *full_header);
    }
    for (size_t n = 0; n < blob.size(); n += blob.size() / 500 + 1) {
      CHECK(DecodeBlobRecord(std::string_view(blob).substr(0, n))
                .status()
                .IsCorruption());
    }
    for (size_t n = 0; n < write.size(); n += write.size() / 500 + 1) {
      CHECK(DecodeWriteRecord(std::string_view(write).substr(0, n))
                .status()
                .IsCorruption());
    }
  }
}

TEST_CASE("random bit flips of records decode or are Corruption") {
  RandomRecords random(17);
  auto& values = random.values();
  for (int i = 0; i < 300; ++i) {
    for (std::string encoded :
         {EncodeCheckpointRecord(random.Checkpoint()),
          EncodeBlobRecord(random.Blob()), EncodeWriteRecord(random.Write())}) {
      for (int flip = 0; flip < 6; ++flip) {
        std::string mutated = encoded;
        size_t bit = values.Uniform(mutated.size() * 8);
        mutated[bit / 8] =
            static_cast<char>(mutated[bit / 8] ^ (1 << (bit % 8)));
        DecodeAll(mutated);
      }
    }
  }
}

TEST_CASE("random byte strings after a valid version byte") {
  RandomRecords random(23);
  auto& values = random.values();
  for (int i = 0; i < 5000; ++i) {
    std::string bytes(1, static_cast<char>(kRecordFormatVersion));
    for (size_t n = values.Uniform(40); n > 0; --n) {
      bytes.push_back(static_cast<char>(values.Uniform(256)));
    }
    DecodeAll(bytes);
  }
}

TEST_CASE("nesting bomb in metadata is Corruption") {
  std::string header = "\x94\xc0\x80\x90\xc2";
  std::string record =
      "\x01\x05" + header + "\x96\x01\xa1t\x80\xc0\xc0\x81\xa1m";
  record += std::string(100000, '\x91');
  CHECK(DecodeCheckpointRecord(record).status().IsCorruption());
  CHECK(DecodeCheckpointHeader(record).ok());
}

}  // namespace
}  // namespace rockpoint::serde
