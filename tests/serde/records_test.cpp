// Tests of serde/records.h: golden bytes of each record kind, round trips,
// exact ChannelVersion kinds, the version byte, per-field type checks and
// header-only decoding.
#include "serde/records.h"

#include <doctest/doctest.h>

#include <string>

#include "rockpoint/msgpack_codec.h"
#include "serde/hex.h"
#include "serde/random_records.h"

namespace rockpoint::serde {
namespace {

using namespace std::string_literals;
using testing::Hex;
using testing::RandomRecords;
using testing::ToHex;

CheckpointRecord SmallCheckpoint() {
  CheckpointRecord record;
  record.header.channel_versions = {{"a", int64_t{1}}};
  record.header.stored_channels = {"a"};
  record.v = 1;
  record.ts = "t";
  record.metadata = Value::MakeMap();
  return record;
}

// A format 1 checkpoint record (no checksum, so that a test can hand-craft
// one) built from its parts: [1][varint len][header][body].
std::string CheckpointBytes(const std::string& header_hex,
                            const std::string& body_hex) {
  std::string header = Hex(header_hex);
  REQUIRE(header.size() < 128);
  return "\x01"s + static_cast<char>(header.size()) + header + Hex(body_hex);
}

constexpr char kSmallHeader[] = "94c081a1610191a161c2";
constexpr char kSmallBody[] = "9601a17480c0c080";

void CheckCorruptionMentions(const Status& status, const std::string& text) {
  CAPTURE(status.ToString());
  CHECK(status.IsCorruption());
  CHECK(status.message().find(text) != std::string::npos);
}

TEST_CASE("golden: checkpoint record") {
  std::string encoded = EncodeCheckpointRecord(SmallCheckpoint());
  CHECK(ToHex(encoded) ==
        "020a" + std::string(kSmallHeader) + kSmallBody + "ad2e6286");
  Result<CheckpointRecord> decoded = DecodeCheckpointRecord(encoded);
  REQUIRE(decoded.ok());
  CHECK(*decoded == SmallCheckpoint());
}

TEST_CASE("golden: blob records, value and empty marker") {
  BlobRecord blob{false, TypedValue{"json", "{}"}};
  CHECK(ToHex(EncodeBlobRecord(blob)) == "0292a46a736f6ec4027b7dcadc298e");
  BlobRecord empty{true, {}};
  CHECK(ToHex(EncodeBlobRecord(empty)) == "02c0c012930a");
  Result<BlobRecord> decoded =
      DecodeBlobRecord(Hex("0292a46a736f6ec4027b7dcadc298e"));
  REQUIRE(decoded.ok());
  CHECK(*decoded == blob);
  Result<BlobRecord> decoded_empty = DecodeBlobRecord(Hex("02c0c012930a"));
  REQUIRE(decoded_empty.ok());
  CHECK(decoded_empty->empty);
  CHECK(*decoded_empty == empty);
}

TEST_CASE("golden: write record") {
  WriteRecord write{"c", TypedValue{"msgpack", "\x01"}};
  CHECK(ToHex(EncodeWriteRecord(write)) ==
        "0293a163a76d73677061636bc40101c81fc467");
  Result<WriteRecord> decoded =
      DecodeWriteRecord(Hex("0293a163a76d73677061636bc40101c81fc467"));
  REQUIRE(decoded.ok());
  CHECK(*decoded == write);
}

TEST_CASE("a full checkpoint record round trips") {
  CheckpointRecord record;
  record.header.parent_id = "1ef\0\xff"s;
  record.header.channel_versions = {
      {"int", int64_t{1}}, {"str", "1"s}, {"", int64_t{-7}}, {"\0"s, ""s}};
  record.header.stored_channels = {"", "int"};
  record.header.hidden = true;
  record.v = 4;
  record.ts = "2024-06-11T10:00:00.000000+00:00";
  record.versions_seen = {{"node", {{"int", int64_t{1}}, {"str", "1"s}}},
                          {"__input__", {}}};
  record.updated_channels = std::vector<std::string>{"int", "str"};
  record.pending_sends =
      std::vector<TypedValue>{{"msgpack", "\x90"s}, {"json", ""}};
  record.metadata = Value(Value::Map{
      {"source", Value("loop")},
      {"step", Value(3)},
      {"parents", Value::MakeMap()},
      {"blob", Value(Bytes{"\0\1"s})},
  });
  std::string encoded = EncodeCheckpointRecord(record);
  Result<CheckpointRecord> decoded = DecodeCheckpointRecord(encoded);
  REQUIRE_MESSAGE(decoded.ok(), decoded.status().ToString());
  CHECK(*decoded == record);
  Result<CheckpointHeader> header = DecodeCheckpointHeader(encoded);
  REQUIRE(header.ok());
  CHECK(*header == record.header);
}

TEST_CASE("ChannelVersion keeps int 1 and string \"1\" apart") {
  CheckpointRecord as_int = SmallCheckpoint();
  CheckpointRecord as_string = SmallCheckpoint();
  as_string.header.channel_versions["a"] = "1"s;
  as_int.versions_seen["n"]["a"] = int64_t{1};
  as_string.versions_seen["n"]["a"] = "1"s;
  std::string int_bytes = EncodeCheckpointRecord(as_int);
  std::string string_bytes = EncodeCheckpointRecord(as_string);
  CHECK(int_bytes != string_bytes);
  Result<CheckpointRecord> int_back = DecodeCheckpointRecord(int_bytes);
  Result<CheckpointRecord> string_back = DecodeCheckpointRecord(string_bytes);
  REQUIRE(int_back.ok());
  REQUIRE(string_back.ok());
  CHECK(std::get<int64_t>(int_back->header.channel_versions.at("a")) == 1);
  CHECK(std::get<std::string>(string_back->header.channel_versions.at("a")) ==
        "1");
  CHECK(std::holds_alternative<int64_t>(int_back->versions_seen["n"]["a"]));
  CHECK(std::holds_alternative<std::string>(
      string_back->versions_seen["n"]["a"]));
}

TEST_CASE("an unknown record format version is Corruption") {
  std::string checkpoint = EncodeCheckpointRecord(SmallCheckpoint());
  checkpoint[0] = 7;
  CheckCorruptionMentions(DecodeCheckpointRecord(checkpoint).status(),
                          "unsupported record format version 7");
  CheckCorruptionMentions(DecodeCheckpointHeader(checkpoint).status(),
                          "unsupported record format version 7");
  CheckCorruptionMentions(DecodeBlobRecord(Hex("00c0")).status(),
                          "unsupported record format version 0");
  CheckCorruptionMentions(DecodeWriteRecord(Hex("ff93a163a176c400")).status(),
                          "unsupported record format version 255");
  CheckCorruptionMentions(DecodeBlobRecord("").status(), "empty record");
  CheckCorruptionMentions(DecodeWriteRecord("").status(), "empty record");
  CheckCorruptionMentions(DecodeCheckpointRecord("").status(), "empty record");
}

TEST_CASE("checkpoint header fields are type-checked") {
  auto header_error = [](const std::string& header_hex) {
    return DecodeCheckpointHeader(CheckpointBytes(header_hex, kSmallBody))
        .status();
  };
  CheckCorruptionMentions(header_error("94 01 80 90 c2"),
                          "header.parent_id must be a string or nil (got int)");
  CheckCorruptionMentions(header_error("94 c4016c 80 90 c2"),
                          "header.parent_id");
  CheckCorruptionMentions(header_error("94 c0 90 90 c2"),
                          "header.channel_versions must be a map");
  CheckCorruptionMentions(header_error("94 c0 81a161cb3ff0000000000000 90 c2"),
                          "header.channel_versions[\"a\"] must be an int or a "
                          "string (got double)");
  CheckCorruptionMentions(header_error("94 c0 81a161c0 90 c2"),
                          "header.channel_versions[\"a\"]");
  CheckCorruptionMentions(header_error("94 c0 80 80 c2"),
                          "header.stored_channels must be an array");
  CheckCorruptionMentions(header_error("94 c0 80 9101 c2"),
                          "header.stored_channels[] must be a string");
  CheckCorruptionMentions(header_error("94 c0 80 90 00"),
                          "header.hidden must be a bool");
  CheckCorruptionMentions(header_error("93 c0 80 90"),
                          "header must be an array of 4 fields (got 3 fields)");
  CheckCorruptionMentions(header_error("80"),
                          "header must be an array of 4 fields (got map)");
  CheckCorruptionMentions(header_error("94 c0 82a16101a16102 90 c2"),
                          "header.channel_versions has a duplicate key \"a\"");
}

TEST_CASE("checkpoint body fields are type-checked") {
  auto body_error = [](const std::string& body_hex) {
    return DecodeCheckpointRecord(CheckpointBytes(kSmallHeader, body_hex))
        .status();
  };
  CheckCorruptionMentions(body_error("96 a131 a174 80 c0c0 80"),
                          "v must be an int (got string)");
  CheckCorruptionMentions(body_error("96 01 c401 74 80 c0c0 80"),
                          "ts must be a string (got bytes)");
  CheckCorruptionMentions(body_error("96 01 a174 90 c0c0 80"),
                          "versions_seen must be a map");
  CheckCorruptionMentions(body_error("96 01 a174 81a16e01 c0c0 80"),
                          "versions_seen[\"n\"] must be a map");
  CheckCorruptionMentions(
      body_error("96 01 a174 81a16e81a163c3 c0c0 80"),
      "versions_seen[\"n\"][\"c\"] must be an int or a string (got bool)");
  CheckCorruptionMentions(body_error("96 01 a174 80 80c0 80"),
                          "updated_channels must be an array");
  CheckCorruptionMentions(body_error("96 01 a174 80 c080 80"),
                          "pending_sends must be an array or nil");
  CheckCorruptionMentions(body_error("96 01 a174 80 c09101 80"),
                          "pending_sends[0] must be an array of 2 fields");
  CheckCorruptionMentions(body_error("96 01 a174 80 c091 92a16aa16b 80"),
                          "pending_sends[0].bytes must be bytes (got string)");
  CheckCorruptionMentions(body_error("96 01 a174 80 c0c0 c0"),
                          "metadata must be a map (got null)");
  CheckCorruptionMentions(body_error("95 01 a174 80 c0c0"),
                          "body must be an array of 6 fields");
  CheckCorruptionMentions(body_error(std::string(kSmallBody) + "c0"),
                          "trailing");
  CheckCorruptionMentions(body_error("96 01 a174 82a16e80a16e80 c0c0 80"),
                          "versions_seen has a duplicate key \"n\"");
  CheckCorruptionMentions(body_error("96 01 a174 80 c0c0 82a16b01a16b02"),
                          "metadata: msgpack: duplicate map key \"k\"");
  CheckCorruptionMentions(body_error("96 01 a174 80 c0c0 81a16b91"),
                          "body: msgpack: truncated");
  // The header alone still decodes when only the body is bad.
  CHECK(DecodeCheckpointHeader(CheckpointBytes(kSmallHeader, "c0")).ok());
}

TEST_CASE("blob and write record fields are type-checked") {
  CheckCorruptionMentions(DecodeBlobRecord(Hex("0101")).status(),
                          "value must be nil or an array (got int)");
  CheckCorruptionMentions(DecodeBlobRecord(Hex("0192a16ac0")).status(),
                          "value.bytes must be bytes (got null)");
  CheckCorruptionMentions(DecodeBlobRecord(Hex("0192c400c400")).status(),
                          "value.type must be a string (got bytes)");
  CheckCorruptionMentions(DecodeBlobRecord(Hex("0193a16ac400c0")).status(),
                          "value must be an array of 2 fields");
  CheckCorruptionMentions(DecodeWriteRecord(Hex("0193c0a176c400")).status(),
                          "channel must be a string (got null)");
  CheckCorruptionMentions(DecodeWriteRecord(Hex("0193a163c3c400")).status(),
                          "type must be a string (got bool)");
  CheckCorruptionMentions(DecodeWriteRecord(Hex("0193a163a176a0")).status(),
                          "bytes must be bytes (got string)");
  CheckCorruptionMentions(DecodeWriteRecord(Hex("0192a163a176")).status(),
                          "write must be an array of 3 fields");
  CheckCorruptionMentions(DecodeWriteRecord(Hex("01c0")).status(),
                          "write record");
}

TEST_CASE("header_len must be a minimal varint within the record") {
  std::string header = Hex(kSmallHeader);
  std::string body = Hex(kSmallBody);
  // Overlong varint for 10: 0x8a 0x00.
  CheckCorruptionMentions(
      DecodeCheckpointHeader("\x01\x8a\x00"s + header + body).status(),
      "not minimal");
  CheckCorruptionMentions(
      DecodeCheckpointHeader("\x01\xff\xff\xff\xff\x7f"s).status(),
      "exceeds 32 bits");
  CheckCorruptionMentions(DecodeCheckpointHeader("\x01\x80"s).status(),
                          "truncated");
  CheckCorruptionMentions(
      DecodeCheckpointHeader("\x01\x7f"s + header + body).status(),
      "exceeds the");
  // A header_len one short or one long splits the record wrongly.
  CHECK(DecodeCheckpointRecord("\x01\x09"s + header + body)
            .status()
            .IsCorruption());
  CHECK(DecodeCheckpointRecord("\x01\x0b"s + header + body)
            .status()
            .IsCorruption());
}

TEST_CASE("random records round trip; header-only decode matches") {
  RandomRecords random(99);
  for (int i = 0; i < 500; ++i) {
    CheckpointRecord record = random.Checkpoint();
    std::string encoded = EncodeCheckpointRecord(record);
    Result<CheckpointRecord> decoded = DecodeCheckpointRecord(encoded);
    REQUIRE_MESSAGE(decoded.ok(), decoded.status().ToString());
    CHECK(EncodeCheckpointRecord(*decoded) == encoded);
    Result<CheckpointHeader> header = DecodeCheckpointHeader(encoded);
    REQUIRE(header.ok());
    CHECK(*header == decoded->header);
    CHECK(*header == record.header);

    BlobRecord blob = random.Blob();
    Result<BlobRecord> blob_back = DecodeBlobRecord(EncodeBlobRecord(blob));
    REQUIRE(blob_back.ok());
    CHECK(*blob_back == blob);

    WriteRecord write = random.Write();
    Result<WriteRecord> write_back =
        DecodeWriteRecord(EncodeWriteRecord(write));
    REQUIRE(write_back.ok());
    CHECK(*write_back == write);
  }
}

}  // namespace
}  // namespace rockpoint::serde
