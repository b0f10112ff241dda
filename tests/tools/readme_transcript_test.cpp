// README.md's CLI transcript, between <!-- cli-transcript --> and
// <!-- /cli-transcript -->, run against a fresh demo store.
//
// The block is "$ command" lines, each followed by its expected stdout.
// Commands: `build/tools/rockpoint-demo ARGS > /dev/null`, `export
// NAME=VALUE` (an environment variable for later commands) and
// `build/tools/rockpoint ARGS` (split on spaces; no quoting, pipes or
// redirections). They run in a temporary directory, so relative paths
// stay inside it.
//
// What changes with every run is compared as placeholders: UUID-shaped ids
// become <id-N>, numbered by first appearance (separately in the README and
// in the run, so an id a command takes is replaced by the run's id with the
// same number), the 16 random digits of runtime versions become <rand>,
// timestamps <ts>.
#if defined(ROCKPOINT_HAVE_RUNTIME)
#include <map>
#include <regex>

#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

const std::regex kId(
    "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
const std::regex kVersionDigits("([0-9]{32})\\.[0-9]{16}");
const std::regex kTimestamp(
    "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z");

// Ids numbered by first appearance, in both directions.
struct IdNumbers {
  std::map<std::string, int> number;
  std::map<int, std::string> id;
  int Of(const std::string& value) {
    auto [it, added] = number.emplace(value, static_cast<int>(number.size()));
    if (added) id[it->second] = value;
    return it->second;
  }
};

std::string Normalize(const std::string& text, IdNumbers& ids) {
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), kId);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out += text.substr(last, it->position() - last);
    out += "<id-" + std::to_string(ids.Of(it->str())) + ">";
    last = it->position() + it->length();
  }
  out += text.substr(last);
  out = std::regex_replace(out, kVersionDigits, "$1.<rand>");
  out = std::regex_replace(out, kTimestamp, "<ts>");
  // Trailing blanks of table lines are not significant in a README.
  out = std::regex_replace(out, std::regex(" +\n"), "\n");
  return out;
}

struct Step {
  std::string command;
  std::string expected;  // lines after the command, each with '\n'.
};

std::vector<Step> ReadTranscript() {
  const std::string readme = ReadFile(ROCKPOINT_SOURCE_DIR "/README.md");
  const size_t begin = readme.find("<!-- cli-transcript -->");
  const size_t end = readme.find("<!-- /cli-transcript -->");
  REQUIRE_MESSAGE(
      (begin != std::string::npos && end != std::string::npos && begin < end),
      "README.md has no cli-transcript block");
  std::istringstream block(readme.substr(begin, end - begin));
  std::vector<Step> steps;
  std::string line;
  std::getline(block, line);  // the opening marker
  while (std::getline(block, line)) {
    if (line.starts_with("```")) continue;
    if (line.starts_with("$ ")) {
      steps.push_back({line.substr(2), ""});
    } else {
      REQUIRE_MESSAGE(!steps.empty(), "output before a command: ", line);
      steps.back().expected += line + "\n";
    }
  }
  return steps;
}

std::vector<std::string> Words(const std::string& command) {
  std::vector<std::string> words;
  std::istringstream in(command);
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

TEST_CASE("README's CLI transcript matches a fresh demo store") {
  TempDir dir;
  const std::vector<Step> steps = ReadTranscript();
  REQUIRE(steps.size() >= 3);
  IdNumbers readme_ids, run_ids;
  std::vector<std::string> env;
  for (const Step& step : steps) {
    CAPTURE(step.command);
    std::vector<std::string> words = Words(Normalize(step.command, readme_ids));
    REQUIRE(!words.empty());
    if (words[0] == "export") {
      REQUIRE(words.size() == 2);
      env.push_back(words[1]);
      continue;
    }
    std::string binary;
    if (words[0] == "build/tools/rockpoint-demo") {
      REQUIRE(words.size() >= 3);
      REQUIRE(words[words.size() - 2] == ">");
      REQUIRE(words.back() == "/dev/null");
      REQUIRE(step.expected.empty());
      words.resize(words.size() - 2);
      binary = kDemoBinary;
    } else {
      REQUIRE(words[0] == "build/tools/rockpoint");
      binary = kBinary;
    }
    // The README's ids, as the run's ids with the same number.
    std::vector<std::string> args;
    for (size_t i = 1; i < words.size(); ++i) {
      std::smatch id;
      if (std::regex_match(words[i], id, std::regex("<id-([0-9]+)>"))) {
        auto found = run_ids.id.find(std::stoi(id[1]));
        REQUIRE_MESSAGE(found != run_ids.id.end(),
                        "an id no earlier output printed: ", words[i]);
        args.push_back(found->second);
      } else {
        args.push_back(words[i]);
      }
    }
    RunResult result =
        RunCli(args, {.env = env, .cwd = dir.path(), .binary = binary});
    INFO("stderr: ", result.err);
    REQUIRE(result.status == 0);
    if (binary == kDemoBinary) continue;
    CHECK(Normalize(result.out, run_ids) ==
          Normalize(step.expected, readme_ids));
  }
}

}  // namespace
}  // namespace rockpoint::cli_test
#endif  // ROCKPOINT_HAVE_RUNTIME
