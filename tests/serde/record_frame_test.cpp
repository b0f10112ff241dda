// Tests of serde/record_frame.h: the checksum's definition and byte order,
// the frame's errors, format 1 records, and that no damage to a sealed
// record of any kind decodes, by any decoder.
#include "serde/record_frame.h"

#include <doctest/doctest.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "serde/checkpoint_record_view.h"
#include "serde/hex.h"
#include "serde/record_views.h"
#include "serde/records.h"

namespace rockpoint::serde {
namespace {

using namespace std::string_literals;
using testing::Hex;
using testing::ToHex;

void CheckCorruption(const Status& status, const std::string& text) {
  CAPTURE(status.ToString());
  CHECK(status.IsCorruption());
  CHECK(status.message().find(text) != std::string::npos);
}

TEST_CASE("the checksum is XXH3-64's low 32 bits, stored little-endian") {
  std::string record;
  BeginRecord(&record);
  record += Hex("92a46a736f6ec4027b7d");
  const auto expected =
      static_cast<uint32_t>(XXH3_64bits(record.data(), record.size()));
  CHECK(RecordChecksum(record) == expected);
  const std::string payload = record.substr(1);
  SealRecord(&record);
  REQUIRE(record.size() == 1 + payload.size() + kRecordChecksumSize);
  CHECK(static_cast<uint8_t>(record[0]) == kRecordFormatVersion);
  const std::string trailer = record.substr(record.size() - 4);
  for (int i = 0; i < 4; ++i) {
    CHECK(static_cast<uint8_t>(trailer[i]) == ((expected >> (8 * i)) & 0xff));
  }
  Result<std::string_view> opened = OpenRecord(record, "blob record");
  REQUIRE(opened.ok());
  CHECK(*opened == payload);
}

TEST_CASE("the frame's errors name the record") {
  std::string sealed;
  BeginRecord(&sealed);
  sealed += Hex("c0");
  SealRecord(&sealed);
  CheckCorruption(OpenRecord("", "blob record").status(),
                  "blob record: empty record");
  CheckCorruption(OpenRecord(Hex("03c0"), "blob record").status(),
                  "unsupported record format version 3");
  CheckCorruption(OpenRecord(Hex("02c0"), "write record").status(),
                  "write record: record of 2 bytes is too short for its "
                  "checksum");
  std::string damaged = sealed;
  damaged[1] = '\xc2';
  CheckCorruption(OpenRecord(damaged, "blob record").status(),
                  "blob record: checksum mismatch (stored 0x");
  std::string_view payload;
  CHECK_FALSE(internal::OpenRecordFast(damaged, &payload));
  CHECK_FALSE(internal::OpenRecordFast(Hex("02c0"), &payload));
  REQUIRE(internal::OpenRecordFast(sealed, &payload));
  CHECK(ToHex(payload) == "c0");
}

TEST_CASE("format 1 records (no checksum) still decode") {
  // The golden vectors of format 1, as stores of format 1 hold them.
  Result<BlobRecord> blob = DecodeBlobRecord(Hex("0192a46a736f6ec4027b7d"));
  REQUIRE(blob.ok());
  CHECK(blob->value == TypedValue{"json", "{}"});
  Result<WriteRecord> write =
      DecodeWriteRecord(Hex("0193a163a76d73677061636bc40101"));
  REQUIRE(write.ok());
  CHECK(write->channel == "c");
  const std::string checkpoint =
      Hex("010a94c081a1610191a161c29601a17480c0c080");
  Result<CheckpointRecord> record = DecodeCheckpointRecord(checkpoint);
  REQUIRE(record.ok());
  CHECK(record->ts == "t");
  CheckpointHeaderView header;
  REQUIRE(DecodeCheckpointHeaderView(checkpoint, &header).ok());
  CHECK(header.stored_channels.size() == 1);
}

// Every decoder of one record kind, each returning its status.
using Decoder = std::function<Status(std::string_view)>;

std::vector<Decoder> CheckpointDecoders() {
  return {
      [](std::string_view b) { return DecodeCheckpointRecord(b).status(); },
      [](std::string_view b) { return DecodeCheckpointHeader(b).status(); },
      [](std::string_view b) {
        return DecodeCheckpointRecordDirect(b).status();
      },
      [](std::string_view b) {
        CheckpointHeaderView view;
        return DecodeCheckpointHeaderView(b, &view);
      },
  };
}

std::vector<Decoder> BlobDecoders() {
  return {
      [](std::string_view b) { return DecodeBlobRecord(b).status(); },
      [](std::string_view b) {
        BlobRecordView view;
        return DecodeBlobRecordView(b, &view);
      },
  };
}

std::vector<Decoder> WriteDecoders() {
  return {
      [](std::string_view b) { return DecodeWriteRecord(b).status(); },
      [](std::string_view b) {
        WriteRecordView view;
        return DecodeWriteRecordView(b, &view);
      },
  };
}

CheckpointRecord FullCheckpoint() {
  CheckpointRecord record;
  record.header.parent_id = "1ef-parent";
  record.header.channel_versions = {{"a", int64_t{3}}, {"b", "2.x"s}};
  record.header.stored_channels = {"a"};
  record.v = 4;
  record.ts = "2024-06-11T10:00:00.000000+00:00";
  record.versions_seen = {{"node", {{"a", int64_t{2}}}}};
  record.updated_channels = std::vector<std::string>{"a"};
  record.pending_sends = std::vector<TypedValue>{{"msgpack", "\x90"s}};
  record.metadata = Value(Value::Map{
      {"step", Value(3)}, {"source", Value("loop")}, {"run_id", Value("r-1")}});
  return record;
}

// Applies `damage` to every decoder; each must refuse the damaged bytes.
void CheckRefused(const std::string& damaged,
                  const std::vector<Decoder>& decoders,
                  const std::string& what) {
  for (size_t d = 0; d < decoders.size(); ++d) {
    const Status status = decoders[d](damaged);
    if (!status.IsCorruption()) {
      FAIL_CHECK(what << ": decoder " << d << " accepted " << ToHex(damaged));
    }
  }
}

// Regression (#21): of 260 random byte flips in stored records, 30 changed
// what reads returned (timestamps, versions, channel names, type tags,
// values). With the checksum, every change of one byte, every truncation
// and every appended byte is Corruption, for every decoder of the record.
TEST_CASE("regression: a changed byte in a record read as another value") {
  const std::vector<std::pair<std::string, std::vector<Decoder>>> records = {
      {EncodeCheckpointRecord(FullCheckpoint()), CheckpointDecoders()},
      {EncodeBlobRecord({false, TypedValue{"json", "{\"k\": [1, 2]}"}}),
       BlobDecoders()},
      {EncodeBlobRecord({true, {}}), BlobDecoders()},
      {EncodeWriteRecord({"messages", TypedValue{"msgpack", "\x92\x01\x02"s}}),
       WriteDecoders()},
  };
  std::mt19937 random(2111);
  for (const auto& [sealed, decoders] : records) {
    for (const Decoder& decode : decoders) REQUIRE(decode(sealed).ok());
    for (size_t at = 0; at < sealed.size(); ++at) {
      for (int mask :
           {0x01, 0x10, 0x80, 0xff, 1 + static_cast<int>(random() % 255)}) {
        std::string damaged = sealed;
        damaged[at] = static_cast<char>(damaged[at] ^ mask);
        CheckRefused(
            damaged, decoders,
            "byte " + std::to_string(at) + " ^ " + std::to_string(mask));
      }
      CheckRefused(sealed.substr(0, at), decoders,
                   "cut to " + std::to_string(at));
    }
    CheckRefused(sealed + '\0', decoders, "a byte appended");
  }
}

}  // namespace
}  // namespace rockpoint::serde
