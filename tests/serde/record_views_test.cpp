// Tests of serde/record_views.h: the view decoders agree with the reference
// decoders of serde/records.h on every input, valid or not. On valid records
// the direct reader (no msgpack tree) does the work; on malformed ones the
// status is the reference decoder's, message included.
#include "serde/record_views.h"

#include <doctest/doctest.h>

#include <string>

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

void HeadersAgree(std::string_view bytes) {
  ViewAgrees<CheckpointHeaderView>(bytes, DecodeCheckpointHeader,
                                   DecodeCheckpointHeaderView,
                                   internal::DirectDecodeCheckpointHeader);
}

void WritesAgree(std::string_view bytes) {
  ViewAgrees<WriteRecordView>(bytes, DecodeWriteRecord, DecodeWriteRecordView,
                              internal::DirectDecodeWriteRecord);
}

void HeaderAndWriteViewsAgree(std::string_view bytes) {
  HeadersAgree(bytes);
  WritesAgree(bytes);
}

TEST_CASE("golden records decode to views") {
  // serde/FORMAT.md 2.1 and 2.3.
  const std::string checkpoint =
      Hex("01 0a 94 c0 81 a1 61 01 91 a1 61 c2 96 01 a1 74 80 c0 c0 80");
  CheckpointHeaderView header;
  REQUIRE(internal::DirectDecodeCheckpointHeader(checkpoint, &header));
  CHECK_FALSE(header.parent_id.has_value());
  REQUIRE(header.channel_versions.size() == 1);
  CHECK(header.channel_versions[0].first == "a");
  CHECK(header.channel_versions[0].second == ChannelVersionView(int64_t{1}));
  CHECK(header.stored_channels == std::vector<std::string_view>{"a"});
  CHECK_FALSE(header.hidden);
  REQUIRE(header.FindVersion("a") != nullptr);
  CHECK(header.FindVersion("b") == nullptr);

  const std::string write = Hex("01 93 a1 63 a7 6d 73 67 70 61 63 6b c4 01 01");
  WriteRecordView record;
  REQUIRE(internal::DirectDecodeWriteRecord(write, &record));
  CHECK(record.channel == "c");
  CHECK(record.type == "msgpack");
  CHECK(record.bytes == "\x01");
}

TEST_CASE("random records: the direct reader decodes them as the reference") {
  RandomRecords random(31);
  CheckpointHeaderView header;  // reused, as the delta walk does
  WriteRecordView write;
  for (int i = 0; i < 2000; ++i) {
    const CheckpointRecord checkpoint = random.Checkpoint();
    const std::string checkpoint_bytes = EncodeCheckpointRecord(checkpoint);
    REQUIRE(internal::DirectDecodeCheckpointHeader(checkpoint_bytes, &header));
    CHECK(header.ToOwned() == checkpoint.header);
    HeadersAgree(checkpoint_bytes);

    const WriteRecord record = random.Write();
    const std::string write_bytes = EncodeWriteRecord(record);
    REQUIRE(internal::DirectDecodeWriteRecord(write_bytes, &write));
    CHECK(write.ToOwned() == record);
    WritesAgree(write_bytes);
  }
}

TEST_CASE("every length and integer form the tree parser reads") {
  // parent str8 "p"; channel_versions map16 {"b": uint64 7, "a": int64 -1,
  // "c": str16 "v"} (keys out of order); stored_channels array16 [str32 "a"];
  // hidden true.
  const std::string header =
      Hex("94 d9 01 70"
          " de 00 03 a1 62 cf 00 00 00 00 00 00 00 07"
          " a1 61 d3 ff ff ff ff ff ff ff ff a1 63 da 00 01 76"
          " dc 00 01 db 00 00 00 01 61 c3");
  const std::string checkpoint =
      "\x01"s + static_cast<char>(header.size()) + header;
  CheckpointHeaderView view;
  REQUIRE(internal::DirectDecodeCheckpointHeader(checkpoint, &view));
  CheckpointHeader expected;
  expected.parent_id = "p";
  expected.channel_versions = {
      {"a", int64_t{-1}}, {"b", int64_t{7}}, {"c", std::string("v")}};
  expected.stored_channels = {"a"};
  expected.hidden = true;
  CHECK(view.ToOwned() == expected);
  HeadersAgree(checkpoint);

  // array16 of 3; str8 channel; str16 type; bin32 payload.
  const std::string write =
      Hex("01 dc 00 03 d9 01 63 da 00 01 74 c6 00 00 00 02 00 ff");
  WriteRecordView record;
  REQUIRE(internal::DirectDecodeWriteRecord(write, &record));
  CHECK(record.ToOwned() == WriteRecord{"c", TypedValue{"t", "\x00\xff"s}});
  WritesAgree(write);

  // Every fixint and sized integer form as a version.
  for (const char* version :
       {"00", "7f", "e0", "ff", "cc ff", "cd ff ff", "ce ff ff ff ff",
        "cf 7f ff ff ff ff ff ff ff", "d0 80", "d1 80 00", "d2 80 00 00 00",
        "d3 80 00 00 00 00 00 00 00", "d0 7f"}) {
    CAPTURE(version);
    const std::string h = Hex("94 c0 81 a1 61 "s + version + " 90 c2");
    HeadersAgree("\x01"s + static_cast<char>(h.size()) + h);
  }
}

TEST_CASE("malformed records: the reference decoder's error, word for word") {
  const auto header_record = [](const std::string& header_hex) {
    const std::string h = Hex(header_hex);
    return "\x01"s + static_cast<char>(h.size()) + h;
  };
  for (const std::string& bytes : {
           ""s,
           "\x02"s,                             // unknown version
           "\x01"s,                             // no header_len
           "\x01\x80"s,                         // truncated varint
           "\x01\x80\x00"s,                     // not minimal
           "\x01\xff\xff\xff\xff\x7f"s,         // over 32 bits
           "\x01\x05\x94\xc0\x80"s,             // header_len too big
           header_record("94 c0 80 90"),        // 3 fields given
           header_record("95 c0 80 90 c2 c2"),  // 5 fields
           header_record("94 c0 80 90 c2 c0"),  // trailing byte
           header_record("94 01 80 90 c2"),     // parent_id an int
           header_record("94 c0 90 90 c2"),     // versions an array
           header_record("94 c0 81 a1 61 cb 3f f0 00 00 00 00 00 00 90 c2"),
           header_record("94 c0 81 a1 61 cf 80 00 00 00 00 00 00 00 90 c2"),
           header_record("94 c0 81 01 01 90 c2"),              // int map key
           header_record("94 c0 82 a1 61 01 a1 61 02 90 c2"),  // duplicate
           header_record("94 c0 83 a1 62 01 a1 61 01 a1 62 02 90 c2"),
           header_record("94 c0 80 91 01 c2"),           // stored int
           header_record("94 c0 80 90 c0"),              // hidden nil
           header_record("94 c0 80 dd ff ff ff ff c2"),  // forged count
           header_record("94 c0 df ff ff ff ff 90 c2"),  // forged count
           header_record("94 db ff ff ff ff 80 90 c2"),  // forged length
           header_record("94 c0 80 90 c1"),              // never-used byte
       }) {
    CAPTURE(testing::ToHex(bytes));
    HeaderAndWriteViewsAgree(bytes);
  }
  for (const char* write_hex : {
           "01 92 a1 63 a1 74",              // 2 fields
           "01 94 a1 63 a1 74 c4 00 c0",     // 4 fields
           "01 93 a1 63 a1 74 a0",           // bytes a str
           "01 93 c4 01 63 a1 74 c4 00",     // channel bin
           "01 93 a1 63 01 c4 00",           // type an int
           "01 93 a1 63 a1 74 c4 00 c0",     // trailing byte
           "01 93 a1 63 a1 74 c4 05 00",     // truncated payload
           "01 93 a1 63 a1 74 c6 ff ff ff",  // truncated length
           "01 c0",                          // nil
       }) {
    CAPTURE(write_hex);
    HeaderAndWriteViewsAgree(Hex(write_hex));
  }
}

TEST_CASE("truncations, bit flips and random bytes: both decoders agree") {
  RandomRecords random(47);
  auto& values = random.values();
  const auto agree = [](std::string_view bytes) {
    HeaderAndWriteViewsAgree(bytes);
  };
  for (int i = 0; i < 150; ++i) {
    ForEachMangled({EncodeCheckpointRecord(random.Checkpoint()),
                    EncodeWriteRecord(random.Write())},
                   values, agree);
  }
  ForEachRandomRecordBytes(values, agree);
}

}  // namespace
}  // namespace rockpoint::serde
