// Tests of formats/export_format.h (the format: tools/cli/FORMAT_JSONL.md):
// a store's export imports into an empty store whose export is the same
// bytes, hidden checkpoints and pending writes included; the reader names
// the line of the first error; WriteList rebuilds a task's put_writes list.
// The CLI's tests (tests/tools/) cover the commands around them.
#include "formats/export_format.h"

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "engine/contract_helpers.h"
#include "formats/import_writes.h"
#include "rockpoint/memory_checkpointer.h"

namespace rockpoint::formats {
namespace {

using testing::Cfg;
using testing::CpId;
using testing::DoPut;
using testing::DoWrites;
using testing::Unwrap;
using testing::Val;
using testing::W;

// Two threads: t1 with a parent, a child and the child's writes; t2 with a
// hidden parent under a visible child.
void Fill(Checkpointer& store) {
  DoPut(store, {.thread = "t1",
                .id = CpId(1),
                .values = {{"a", Val("1")}},
                .versions = {{"a", int64_t{1}}}});
  DoPut(store, {.thread = "t1",
                .id = CpId(2),
                .parent = CpId(1),
                .values = {{"a", Val("2")}, {"b", Val("\"b\"")}},
                .versions = {{"a", int64_t{2}}, {"b", std::string("v1")}}});
  DoWrites(store, "t1", CpId(2), {W("a", "3"), W("b", "\"c\"")}, "task");
  const CheckpointConfig hidden = DoPut(store, {.thread = "t2", .id = CpId(3)});
  DoPut(store, {.thread = "t2", .id = CpId(4), .parent = CpId(3)});
  RP_REQUIRE_OK(store.HideCheckpoint(hidden));
}

std::string ExportOf(Checkpointer& store, ExportCounts* counts) {
  std::ostringstream out;
  *counts = Unwrap(ExportStore(store, {}, out, ProgressFn()));
  return out.str();
}

TEST_CASE("an export imports into a store that exports the same bytes") {
  MemoryCheckpointer source;
  Fill(source);
  ExportCounts counts;
  const std::string exported = ExportOf(source, &counts);
  CHECK(counts.checkpoints == 4);
  CHECK(counts.values == 3);
  CHECK(counts.writes == 2);
  CHECK(exported.find("\"hidden\":true") != std::string::npos);

  std::istringstream in(exported);
  MemoryCheckpointer target;
  const ExportCounts imported = Unwrap(ImportStore(in, target, ProgressFn()));
  CHECK(imported.checkpoints == counts.checkpoints);
  CHECK(imported.values == counts.values);
  CHECK(imported.writes == counts.writes);
  ExportCounts again;
  CHECK(ExportOf(target, &again) == exported);
}

TEST_CASE("the reader names the line of the first error") {
  MemoryCheckpointer source;
  Fill(source);
  ExportCounts counts;
  const std::string exported = ExportOf(source, &counts);

  const auto error_of = [](const std::string& text) {
    std::istringstream in(text);
    MemoryCheckpointer target;
    const Result<ExportCounts> imported = ImportStore(in, target, ProgressFn());
    REQUIRE_FALSE(imported.ok());
    CHECK(imported.status().IsInvalidArgument());
    return imported.status().message();
  };
  CHECK(error_of("") == "input is empty");
  CHECK(error_of("{\"kind\":\"value\"}\n").starts_with("line 1: expected "));
  CHECK(error_of("not json\n").starts_with("line 1: not a JSON object"));
  const std::string no_trailer =
      exported.substr(0, exported.rfind("{\"kind\":\"end\""));
  CHECK(error_of(no_trailer).starts_with("input is truncated"));
  CHECK(error_of(exported + exported.substr(0, exported.find('\n') + 1))
            .find("content after the end line") != std::string::npos);
}

TEST_CASE(
    "WriteList puts each regular write at its idx, a special one in a gap") {
  const std::vector<PendingWrite> writes = {
      {.task_id = "task", .channel = "b", .value = Val("1"), .idx = 1},
      {.task_id = "task", .channel = "__error__", .value = Val("e"), .idx = -2},
      {.task_id = "task", .channel = "a", .value = Val("0"), .idx = 0},
      {.task_id = "task", .channel = "c", .value = Val("3"), .idx = 3},
  };
  const std::vector<ChannelWrite> list = Unwrap(WriteList(writes, "task"));
  REQUIRE(list.size() == 4);
  CHECK(list[0].channel == "a");
  CHECK(list[1].channel == "b");
  CHECK(list[2].channel == "__error__");  // holds idx 2, as it did.
  CHECK(list[3].channel == "c");

  const std::vector<PendingWrite> gap = {
      {.task_id = "task", .channel = "c", .value = Val("3"), .idx = 1}};
  const Result<std::vector<ChannelWrite>> refused = WriteList(gap, "task");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("skip idx 0") != std::string::npos);
}

}  // namespace
}  // namespace rockpoint::formats
