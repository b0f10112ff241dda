// engine/rocksdb/FORMAT.md against the code: its tag table lists exactly the
// tags of key_layout.h (kAllTags) and the meta keys, each in the column
// family and with the tuple shape a real store writes.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "doc_table.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/layout_test_util.h"
#include "engine/rocksdb/rocksdb_maintenance.h"
#include "engine/rocksdb/rocksdb_options.h"

namespace rockpoint::testing {
namespace {

// One row of FORMAT.md's tag table.
struct TagRow {
  std::string tag;     // "cp", or a meta key name such as "format_version".
  std::string family;  // "checkpoints", ...
  std::vector<std::string> elements;  // of the key tuple: "\"cp\"", "thread"
};

// "(\"cp\", thread, ns)" -> {"\"cp\"", "thread", "ns"}; empty if the cell is
// not a parenthesized tuple.
std::vector<std::string> TupleElements(const std::string& cell) {
  std::vector<std::string> elements;
  if (cell.size() < 2 || cell.front() != '(' || cell.back() != ')') {
    return elements;
  }
  const std::string body = cell.substr(1, cell.size() - 2);
  size_t start = 0;
  while (true) {
    const size_t comma = body.find(',', start);
    elements.push_back(TrimCell(body.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return elements;
}

// The rows between <!-- key-tags:begin --> and <!-- key-tags:end -->.
std::vector<TagRow> FormatDocTags() {
  std::vector<TagRow> rows;
  for (const std::vector<std::string>& cells :
       ReadDocTable("engine/rocksdb/FORMAT.md", "key-tags", "| tag |")) {
    INFO("row starting " << cells.front());
    REQUIRE(cells.size() == 4);
    rows.push_back({cells[0], cells[1], TupleElements(cells[2])});
  }
  return rows;
}

std::string Quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

TEST_CASE("FORMAT.md: the tag table is well-formed") {
  const std::vector<TagRow> rows = FormatDocTags();
  REQUIRE_FALSE(rows.empty());
  std::set<std::string> tags;
  for (const TagRow& row : rows) {
    CAPTURE(row.tag);
    CHECK(tags.insert(row.tag).second);  // one row per key kind.
    // Every key tuple starts with its tag as a quoted string.
    REQUIRE_FALSE(row.elements.empty());
    CHECK(row.elements[0] == Quoted(row.tag));
  }
}

TEST_CASE("FORMAT.md: the tags are exactly key_layout.h's kAllTags") {
  std::vector<std::string> documented;
  for (const TagRow& row : FormatDocTags()) {
    if (row.family != kMetaFamily) documented.push_back(row.tag);
  }
  std::vector<std::string> code(rocksdb_layout::kAllTags.begin(),
                                rocksdb_layout::kAllTags.end());
  CHECK(documented == code);
  // The key builders use the tags of the table.
  CHECK(keys::Describe(rocksdb_layout::CheckpointKey("t", "", "1")) ==
        "(\"cp\", \"t\", \"\", \"1\")");
  CHECK(keys::Describe(rocksdb_layout::HiddenKey("t", "", "1")) ==
        "(\"hd\", \"t\", \"\", \"1\")");
}

TEST_CASE("FORMAT.md: the families are exactly the store's") {
  std::set<std::string> documented;
  for (const TagRow& row : FormatDocTags()) documented.insert(row.family);
  const std::vector<std::string> names = ColumnFamilyNames();
  CHECK(documented == std::set<std::string>(names.begin(), names.end()));
}

TEST_CASE("FORMAT.md: every key of a store is a documented kind") {
  std::map<std::string, TagRow> rows;
  for (const TagRow& row : FormatDocTags()) rows.emplace(row.tag, row);

  TempDir dir;
  // Encrypted, so that meta holds the store id and key check too.
  RocksDbOptions options;
  options.path = dir.Sub("store");
  options.sync_writes = false;
  options.encryption = EncryptionOptions{std::string(kEncryptionKeyBytes, 'k')};
  auto store = Unwrap(RocksDbCheckpointer::Open(options));
  // Every key kind: a checkpoint with a value, a run and a child; writes;
  // a hidden checkpoint.
  DoPut(*store, {.thread = "t",
                 .id = CpId(1),
                 .values = {{"a", Val("x")}},
                 .versions = {{"a", int64_t{1}}},
                 .metadata = Meta({{"run_id", Value("r")}})});
  DoPut(*store, {.thread = "t",
                 .id = CpId(2),
                 .parent = CpId(1),
                 .versions = {{"a", std::string("2")}},
                 .metadata = Meta({{"run_id", Value("r")}}),
                 .ns = "n:1"});
  DoWrites(*store, "t", CpId(1), {W("a", "w"), W("__error__", "e")}, "k", "p");
  RP_REQUIRE_OK(store->HideCheckpoint(Cfg("t", CpId(1))));

  std::map<std::string, int> seen;
  RP_REQUIRE_OK(ScanRaw(*store, "", "", [&](const RawEntry& entry) {
    const std::string shown = keys::Describe(entry.key);
    CAPTURE(shown);
    Result<keys::Tuple> tuple = keys::Decode(entry.key);
    REQUIRE(tuple.ok());
    REQUIRE_FALSE(tuple->empty());
    const auto* tag = std::get_if<std::string>(&(*tuple)[0]);
    REQUIRE(tag != nullptr);
    const auto row = rows.find(*tag);
    REQUIRE_MESSAGE(row != rows.end(), "undocumented tag " << *tag);
    CHECK(entry.column_family == row->second.family);
    CHECK(tuple->size() == row->second.elements.size());
    if (*tag == rocksdb_layout::kHiddenCountTag) {
      CHECK(entry.value == "1");  // the one hidden checkpoint
    } else if (entry.column_family == kIndexFamily) {
      CHECK(entry.value.empty());
    }
    ++seen[*tag];
    return true;
  }));
  // The fixture produces every documented kind.
  for (const auto& [tag, row] : rows) {
    CAPTURE(tag);
    CHECK(seen[tag] > 0);
  }
  CHECK(seen["cp"] == 2);
  CHECK(seen["hd"] == 1);
  CHECK(seen["ts"] == 1);   // the hidden checkpoint has none.
  CHECK(seen["run"] == 1);  // likewise.
}

}  // namespace
}  // namespace rockpoint::testing
