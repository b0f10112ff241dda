// Tests of serde/checkpoint_record_view.h: the direct checkpoint and blob
// decoders agree with the reference decoders of serde/records.h on every
// input, valid or not: the same record, or the same error message.
#include "serde/checkpoint_record_view.h"

#include <doctest/doctest.h>

#include <string>

#include "rockpoint/msgpack_codec.h"
#include "serde/hex.h"
#include "serde/random_records.h"
#include "serde/records.h"
#include "serde/view_agreement.h"

namespace rockpoint::serde {
namespace {

using namespace std::string_literals;
using testing::ForEachMangled;
using testing::ForEachRandomRecordBytes;
using testing::Hex;
using testing::RandomRecords;
using testing::ViewAgrees;

// Records compare by their canonical encoding, which also covers NaN.
void CheckpointsAgree(std::string_view bytes) {
  const Result<CheckpointRecord> reference = DecodeCheckpointRecord(bytes);
  const Result<CheckpointRecord> direct = DecodeCheckpointRecordDirect(bytes);
  REQUIRE(direct.ok() == reference.ok());
  if (reference.ok()) {
    CHECK(EncodeCheckpointRecord(*direct) ==
          EncodeCheckpointRecord(*reference));
  } else {
    CHECK(direct.status().ToString() == reference.status().ToString());
  }
  // The direct reader alone takes only what the reference accepts.
  CheckpointRecord alone;
  if (internal::DirectDecodeCheckpointRecord(bytes, &alone)) {
    REQUIRE(reference.ok());
    CHECK(alone == *reference);
  }
}

void BlobsAgree(std::string_view bytes) {
  ViewAgrees<BlobRecordView>(bytes, DecodeBlobRecord, DecodeBlobRecordView,
                             internal::DirectDecodeBlobRecord);
}

void CheckpointAndBlobViewsAgree(std::string_view bytes) {
  CheckpointsAgree(bytes);
  BlobsAgree(bytes);
}

// A checkpoint record whose body is the msgpack `body_hex` after a minimal
// header (no parent, no versions, not hidden).
std::string WithBody(const std::string& body_hex) {
  return Hex("01 05 94 c0 80 90 c2 " + body_hex);
}

// Metadata of the kinds the direct reader reads itself.
Value PlainMetadata(testing::RandomValues& random) {
  Value::Map metadata;
  metadata["source"] = Value("loop");
  metadata["step"] = Value(random.Int());
  metadata["parents"] = Value::MakeMap();
  metadata["flags"] = Value(Value::Array{Value(true), Value(), Value("x")});
  metadata["raw"] = Value(Bytes{random.Bytes()});
  metadata[random.Bytes()] = Value(random.Bytes());
  return Value(std::move(metadata));
}

TEST_CASE("golden records decode directly") {
  // serde/FORMAT.md 2.1: header [nil, {"a": 1}, ["a"], false], body
  // [1, "t", {}, nil, nil, {}].
  const std::string checkpoint =
      Hex("01 0a 94 c0 81 a1 61 01 91 a1 61 c2 96 01 a1 74 80 c0 c0 80");
  CheckpointRecord record;
  REQUIRE(internal::DirectDecodeCheckpointRecord(checkpoint, &record));
  CHECK(record == *DecodeCheckpointRecord(checkpoint));
  CHECK(record.header.channel_versions.at("a") == ChannelVersion(int64_t{1}));
  CHECK(record.ts == "t");
  CHECK(record.metadata == Value::MakeMap());

  BlobRecordView blob;
  REQUIRE(internal::DirectDecodeBlobRecord(Hex("01 c0"), &blob));
  CHECK(blob.empty);
  // The view points into the decoded bytes: they must outlive the checks.
  const std::string msgpack_blob =
      Hex("01 92 a7 6d 73 67 70 61 63 6b c4 02 01 02");
  REQUIRE(internal::DirectDecodeBlobRecord(msgpack_blob, &blob));
  CHECK_FALSE(blob.empty);
  CHECK(blob.type == "msgpack");
  CHECK(blob.bytes == "\x01\x02");
}

TEST_CASE("random records: the direct reader decodes them as the reference") {
  RandomRecords random(59);
  BlobRecordView blob;  // reused, as get_tuple does
  for (int i = 0; i < 2000; ++i) {
    CheckpointRecord checkpoint = random.Checkpoint();
    // Random metadata holds doubles and ext values, left to the reference;
    // half the records carry metadata the direct reader takes.
    const bool plain = random.values().OneIn(2);
    if (plain) checkpoint.metadata = PlainMetadata(random.values());
    const std::string bytes = EncodeCheckpointRecord(checkpoint);
    if (plain) {
      CheckpointRecord direct;
      REQUIRE(internal::DirectDecodeCheckpointRecord(bytes, &direct));
      CHECK(direct == checkpoint);
    }
    CheckpointsAgree(bytes);

    const BlobRecord record = random.Blob();
    const std::string blob_bytes = EncodeBlobRecord(record);
    REQUIRE(internal::DirectDecodeBlobRecord(blob_bytes, &blob));
    CHECK(blob.ToOwned() == record);
    BlobsAgree(blob_bytes);
  }
}

TEST_CASE("metadata the direct reader leaves to the reference") {
  // double, float32, ext, uint64 above INT64_MAX, in the metadata map.
  for (const char* value : {"cb 3f f0 00 00 00 00 00 00", "ca 3f 80 00 00",
                            "d4 01 00", "cf 80 00 00 00 00 00 00 00"}) {
    CAPTURE(value);
    const std::string bytes =
        WithBody("96 01 a1 74 80 c0 c0 81 a1 6b "s + value);
    CheckpointRecord direct;
    CHECK_FALSE(internal::DirectDecodeCheckpointRecord(bytes, &direct));
    CheckpointsAgree(bytes);
  }
  // Nesting at and around the depth limit: the reference counts the body
  // array as one level.
  for (int depth : {kMaxDepth - 4, kMaxDepth - 2, kMaxDepth - 1, kMaxDepth,
                    kMaxDepth + 1}) {
    CAPTURE(depth);
    std::string nested = "96 01 a1 74 80 c0 c0 ";
    for (int level = 1; level < depth; ++level) nested += "81 a1 6b ";
    nested += "80";
    CheckpointsAgree(WithBody(nested));
  }
}

TEST_CASE("malformed records: the reference decoder's error, word for word") {
  for (const std::string& body : {
           "95 01 a1 74 80 c0 c0"s,              // 5 fields
           "97 01 a1 74 80 c0 c0 80 c0"s,        // 7 fields
           "96 a1 76 a1 74 80 c0 c0 80"s,        // v a string
           "96 01 c4 01 74 80 c0 c0 80"s,        // ts bin
           "96 01 a1 74 90 c0 c0 80"s,           // versions_seen an array
           "96 01 a1 74 81 a1 6e 90 c0 c0 80"s,  // node's versions an array
           "96 01 a1 74 82 a1 6e 80 a1 6e 80 c0 c0 80"s,  // duplicate node
           "96 01 a1 74 81 a1 6e 82 a1 61 01 a1 61 02 c0 c0 80"s,
           "96 01 a1 74 80 91 01 c0 80"s,                 // updated an int list
           "96 01 a1 74 80 c2 c0 80"s,                    // updated a bool
           "96 01 a1 74 80 c0 91 92 a1 74 a1 62 80"s,     // send bytes a str
           "96 01 a1 74 80 c0 91 91 a1 74 80"s,           // send of 1 field
           "96 01 a1 74 80 c0 c0 90"s,                    // metadata an array
           "96 01 a1 74 80 c0 c0 81 01 01"s,              // int metadata key
           "96 01 a1 74 80 c0 c0 82 a1 61 01 a1 61 02"s,  // duplicate key
           "96 01 a1 74 80 c0 c0 80 c0"s,                 // trailing byte
           "96 01 a1 74 80 c0 c0 df ff ff ff ff"s,        // forged count
           "96 01 a1 74 80 c0 dd ff ff ff ff 80"s,        // forged count
           "96 01 a1 74 80 c0 c0 81 a1 6b c1"s,           // never-used byte
       }) {
    CAPTURE(body);
    CheckpointsAgree(WithBody(body));
  }
  for (const char* blob_hex : {
           "",                            // empty
           "02 c0",                       // unknown version
           "01",                          // no value
           "01 c0 c0",                    // trailing byte
           "01 c2",                       // a bool
           "01 91 a1 74",                 // 1 field
           "01 93 a1 74 c4 00 c0",        // 3 fields
           "01 92 a1 74 a1 62",           // bytes a str
           "01 92 c4 01 74 c4 00",        // type bin
           "01 92 a1 74 c4 05 00",        // truncated payload
           "01 92 a1 74 c6 ff ff ff ff",  // forged length
       }) {
    CAPTURE(blob_hex);
    CheckpointAndBlobViewsAgree(Hex(blob_hex));
  }
}

TEST_CASE("truncations, bit flips and random bytes: both decoders agree") {
  RandomRecords random(61);
  auto& values = random.values();
  const auto agree = [](std::string_view bytes) {
    CheckpointAndBlobViewsAgree(bytes);
  };
  for (int i = 0; i < 150; ++i) {
    CheckpointRecord record = random.Checkpoint();
    if (values.OneIn(2)) record.metadata = PlainMetadata(values);
    ForEachMangled(
        {EncodeCheckpointRecord(record), EncodeBlobRecord(random.Blob())},
        values, agree);
  }
  ForEachRandomRecordBytes(values, agree);
}

}  // namespace
}  // namespace rockpoint::serde
