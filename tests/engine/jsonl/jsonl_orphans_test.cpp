// JsonlCheckpointer::FindOrphanWrites, before and after a replay.
#include <doctest/doctest.h>

#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/orphan_writes_cases.h"

namespace rockpoint::testing {
namespace {

TEST_CASE("jsonl: FindOrphanWrites lists the writes of missing checkpoints") {
  TempDir dir;
  JsonlOptions options;
  options.path = dir.Sub("store.jsonl");
  std::vector<WriteLocation> before;
  {
    auto store = Unwrap(JsonlCheckpointer::Open(options));
    CheckFindOrphanWrites(*store);
    before = Unwrap(store->FindOrphanWrites());
  }
  options.read_only = true;
  auto reopened = Unwrap(JsonlCheckpointer::Open(options));
  CHECK(Unwrap(reopened->FindOrphanWrites()) == before);
}

}  // namespace
}  // namespace rockpoint::testing
