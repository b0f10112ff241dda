// Several processes, each with its own connections, write to the same
// threads and to threads of their own at once; every checkpoint a writer
// saw acknowledged is there afterwards, whole, and each thread holds
// exactly the acknowledged ones.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/postgres/postgres_checkpointer.h"
#include "engine/postgres/postgres_test_server.h"
#include "engine/rocksdb/process_helpers.h"
#include "engine/store_builders.h"

namespace rockpoint::testing {
namespace {

constexpr int kWriters = 4;
constexpr int kRounds = 25;

TEST_CASE("postgres: 4 writer processes on shared and own threads") {
  const std::string url = FreshDatabase("concurrency");
  {  // Create the schema once, so the writers race on data, not DDL.
    PostgresOptions options;
    options.url = url;
    Status opened = PostgresCheckpointer::Open(options).status();
    REQUIRE_MESSAGE(opened.ok(), opened.ToString());
  }
  const std::string binary =
      std::string(ROCKPOINT_TEST_BINARY_DIR) + "/postgres_writer_main";
  std::vector<ChildProcess> writers;
  for (int w = 0; w < kWriters; ++w) {
    std::string error;
    auto child = ChildProcess::Spawn(
        binary, {url, std::to_string(w), std::to_string(kRounds)}, false,
        &error);
    REQUIRE_MESSAGE(child.has_value(), error);
    writers.push_back(std::move(*child));
  }
  std::map<std::string, std::set<std::string>> acked;  // thread -> ids.
  for (ChildProcess& writer : writers) {
    for (const std::string& line :
         writer.ReadRemainingLines(std::chrono::seconds(300))) {
      std::istringstream fields(line);
      std::string ack, thread, id;
      fields >> ack >> thread >> id;
      if (ack == "ack") acked[thread].insert(id);
    }
    const int status = writer.Wait();
    CHECK_MESSAGE(WIFEXITED(status), DescribeWaitStatus(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  REQUIRE(acked.size() == 4 + 4 * kWriters);

  PostgresOptions options;
  options.url = url;
  options.read_only = true;
  auto opened = PostgresCheckpointer::Open(options);
  REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
  std::unique_ptr<PostgresCheckpointer> store = std::move(opened).value();
  size_t total = 0;
  for (const auto& [thread, ids] : acked) {
    CAPTURE(thread);
    CHECK(ids.size() == static_cast<size_t>(thread.starts_with("shared")
                                                ? kWriters * kRounds
                                                : kRounds));
    auto all = store->ListAll(ListOf(Cfg(thread)));
    REQUIRE_MESSAGE(all.ok(), all.status().ToString());
    const std::vector<CheckpointTuple>& listed = *all;
    std::set<std::string> stored;
    for (const CheckpointTuple& tuple : listed) {
      const std::string& id = *tuple.config.checkpoint_id;
      stored.insert(id);
      CHECK(ValuesOf(tuple.checkpoint) == "c=" + thread + "@" + id);
      CHECK(WritesOf(tuple.pending_writes) == "/task#0:c=w@" + id);
    }
    CHECK(stored == ids);
    total += listed.size();
  }
  CHECK(total == static_cast<size_t>(2 * kWriters * kRounds * 4));
  store.reset();
  DropDatabase(url);
}

}  // namespace
}  // namespace rockpoint::testing
