// get_tuple on records the direct decoders leave to the reference decoders:
// valid but unusual encodings read back exactly as the reference decodes
// them, and malformed ones are Corruption with the reference's words and the
// key. Writes raw records through the store's RocksDB handle.
#include <doctest/doctest.h>

#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/layout_test_util.h"
#include "serde/records.h"

namespace rockpoint::testing {
namespace {

using namespace layout_test;  // NOLINT: test helpers
using namespace std::string_literals;

// A checkpoint record with header [nil, channel_versions, [], false] and
// body [1, "ts", {}, nil, nil, metadata]; both maps given as msgpack bytes.
std::string RawCheckpoint(const std::string& versions_map,
                          const std::string& metadata_map) {
  const std::string header = "\x94\xc0"s + versions_map + "\x90\xc2"s;
  return "\x01"s + static_cast<char>(header.size()) + header +
         "\x96\x01\xa2ts\x80\xc0\xc0"s + metadata_map;
}

TEST_CASE("rocksdb get_tuple: unusual valid records read as the reference") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  RocksDbCheckpointer* impl = store.get();
  DoPut(*store, {.thread = "t",
                 .id = CpId(1),
                 .values = {{"a", Val("1")}, {"b", Val("2")}},
                 .versions = {{"a", int64_t{1}}, {"b", int64_t{1}}}});
  // channel_versions out of key order; metadata holds a double and an ext.
  const std::string record = RawCheckpoint(
      "\x82\xa1"
      "b\x01\xa1"
      "a\x01"s,
      "\x82\xa1x\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00\xa1y\xd4\x05\x00"s);
  const auto reference = serde::DecodeCheckpointRecord(record);
  REQUIRE(reference.ok());
  REQUIRE(impl->db
              ->Put(rocksdb::WriteOptions(), impl->checkpoints,
                    rocksdb_layout::CheckpointKey("t", "", CpId(1)), record)
              .ok());
  for (const CheckpointConfig& config : {Cfg("t", CpId(1)), Cfg("t")}) {
    const CheckpointTuple tuple = MustGet(*store, config);
    CHECK(tuple.checkpoint.id == CpId(1));
    CHECK(tuple.checkpoint.ts == "ts");
    CHECK(tuple.checkpoint.channel_versions ==
          reference->header.channel_versions);
    CHECK(tuple.metadata == reference->metadata);
    CHECK(ValuesOf(tuple.checkpoint) == "a=1 b=2");
  }
}

TEST_CASE("rocksdb get_tuple: malformed records are the reference's error") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  RocksDbCheckpointer* impl = store.get();
  DoPut(*store, {.thread = "t",
                 .id = CpId(1),
                 .values = {{"a", Val("1")}},
                 .versions = {{"a", int64_t{1}}}});
  const auto expect = [&](const Status& status, std::string_view what,
                          const std::string& key, const Status& detail) {
    INFO(status.ToString());
    CHECK(status.ToString() ==
          rocksdb_layout::CorruptionAt(what, key, detail).ToString());
  };

  SUBCASE("checkpoint record: duplicate metadata key") {
    const std::string record = RawCheckpoint(
        "\x81\xa1"
        "a\x01"s,
        "\x82\xa1k\x01\xa1k\x02"s);
    const std::string key = rocksdb_layout::CheckpointKey("t", "", CpId(1));
    REQUIRE(
        impl->db->Put(rocksdb::WriteOptions(), impl->checkpoints, key, record)
            .ok());
    const Status detail = serde::DecodeCheckpointRecord(record).status();
    REQUIRE(detail.IsCorruption());
    expect(store->GetTuple(Cfg("t", CpId(1))).status(), "checkpoint record",
           key, detail);
    expect(store->GetTuple(Cfg("t")).status(), "checkpoint record", key,
           detail);
  }
  SUBCASE("blob record: a trailing byte") {
    const std::string record = "\x01\xc0\xc0"s;
    const std::string key = rocksdb_layout::BlobKey("t", "", "a", int64_t{1});
    REQUIRE(
        impl->db->Put(rocksdb::WriteOptions(), impl->blobs, key, record).ok());
    const Status detail = serde::DecodeBlobRecord(record).status();
    REQUIRE(detail.IsCorruption());
    expect(store->GetTuple(Cfg("t", CpId(1))).status(), "blob record", key,
           detail);
  }
}

}  // namespace
}  // namespace rockpoint::testing
