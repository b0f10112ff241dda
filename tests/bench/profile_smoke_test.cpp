// Smoke test of rockpoint-profile (bench/profile/profile_main.cpp): every op
// runs on a small store and exits 0, a bad argument exits non-zero with a
// message. The instruction counts themselves come from
// bench/profile/callgrind.sh, outside the test suite.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bench/build_tree.h"

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code = -1;
  std::string stderr_text;
};

Outcome RunProfile(const std::string& arguments) {
  const fs::path binary = rockpoint::testing::BenchProgram("rockpoint-profile");
  INFO("binary: " << binary);
  REQUIRE(fs::exists(binary));
  char pattern[] = "/tmp/rockpoint-profile-smoke-XXXXXX";
  const char* dir = ::mkdtemp(pattern);
  REQUIRE(dir != nullptr);
  const fs::path log = fs::path(dir) / "stderr.txt";
  const std::string command = "TMPDIR='" + std::string(dir) + "' '" +
                              binary.string() + "' " + arguments + " 2> '" +
                              log.string() + "'";
  const int status = std::system(command.c_str());
  Outcome outcome;
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  outcome.stderr_text = text.str();
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  return outcome;
}

TEST_CASE("rockpoint-profile runs every op on a small store") {
  for (const char* op :
       {"get-latest", "get-by-id", "put", "raw-latest", "raw-get", "raw-put"}) {
    for (const char* channels : {"1", "3"}) {
      CAPTURE(op);
      CAPTURE(channels);
      const Outcome outcome =
          RunProfile(std::string("--op ") + op + " --channels " + channels +
                     " --calls 20 --threads 3 --length 4 --unwritten-tail 1");
      INFO(outcome.stderr_text);
      CHECK(outcome.exit_code == 0);
    }
  }
  const Outcome delta = RunProfile("--op delta --chain 20 --calls 3");
  INFO(delta.stderr_text);
  CHECK(delta.exit_code == 0);
}

TEST_CASE("rockpoint-profile refuses an unknown op and a tail past the end") {
  const Outcome unknown = RunProfile("--op nope --calls 2 --threads 1");
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.stderr_text.find("unknown --op nope") != std::string::npos);
  const Outcome tail = RunProfile("--length 2 --unwritten-tail 3");
  CHECK(tail.exit_code == 1);
  CHECK(tail.stderr_text.find("--unwritten-tail at most --length") !=
        std::string::npos);
}

}  // namespace
