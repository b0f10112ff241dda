// Contract suite, close: Close returns OK on an idle store, every later call
// returns Aborted "store is closed" (none crashes), and closing again is OK.
// Compiled by contract_cases.cpp.
#pragma once

#include <string>
#include <vector>

#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"

namespace rockpoint::testing {

// Every Checkpointer call with input that succeeds on an open store holding
// checkpoint `id` of thread `thread`; each returns its status.
inline std::vector<Status> CallEveryMethod(Checkpointer& store,
                                           const std::string& thread,
                                           const std::string& id) {
  const CheckpointConfig at = Cfg(thread, id);
  std::vector<Status> out;
  out.push_back(store
                    .Put(Cfg(thread, id), MakeCheckpoint(CpId(99)), Meta(),
                         ChannelVersions{})
                    .status());
  out.push_back(store.PutWrites(at, {ChannelWrite{"x", Val("1")}}, "task"));
  out.push_back(store.GetTuple(at).status());
  out.push_back(store.GetTuple(Cfg(thread)).status());
  out.push_back(store.List(ListOptions{}).status());
  out.push_back(store.ListAll(ListOptions{}).status());
  out.push_back(store.DeleteThread("other"));
  out.push_back(store.DeleteForRuns({}));
  out.push_back(store.DeleteForRuns({"run"}));
  out.push_back(store.CopyThread("unknown", "other"));
  out.push_back(store.CopyThread(thread, "copy"));
  out.push_back(store.GetDeltaChannelHistory(at, {}).status());
  out.push_back(store.GetDeltaChannelHistory(at, {"x"}).status());
  out.push_back(store.ListThreads(ListThreadsOptions{}).status());
  // Last: these hide `id`.
  out.push_back(store.HideCheckpoint(at));
  out.push_back(store.Prune({thread}, PruneStrategy::kKeepLatest));
  return out;
}

}  // namespace rockpoint::testing

RP_CONTRACT_CASE("contract close") {
  RP_CONTRACT_USING;
  DoPut(h.store(), {.thread = "t", .id = CpId(1)});
  h.Reopen();

  SUBCASE("close reports OK, then every call is Aborted") {
    RP_REQUIRE_OK(h.store().Close());
    const std::vector<Status> after = CallEveryMethod(h.store(), "t", CpId(1));
    for (size_t i = 0; i < after.size(); ++i) {
      CAPTURE(i);
      CHECK(after[i] == Status::Aborted("store is closed"));
    }
  }
  SUBCASE("close twice is OK") {
    RP_REQUIRE_OK(h.store().Close());
    RP_REQUIRE_OK(h.store().Close());
    CHECK(h.store().GetTuple(Cfg("t")).status().IsAborted());
  }
  SUBCASE("before close, the same calls succeed") {
    for (const Status& status : CallEveryMethod(h.store(), "t", CpId(1))) {
      CHECK_MESSAGE(status.ok(), status.ToString());
    }
    RP_REQUIRE_OK(h.store().Close());
  }
}
