// docs/CONTRACT.md against the contract suite: every RP_CONTRACT_CASE and
// SUBCASE of tests/engine/contract_*.h is cited in the doc, every citation
// names a case of the file it links to, and contract_cases.cpp compiles
// every file that defines cases.
//
// A citation is a Markdown link whose text is one code span and whose target
// is a suite file: [`name`](../tests/engine/contract_put.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace rockpoint::testing {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

size_t SkipSpace(const std::string& text, size_t pos) {
  while (pos < text.size() &&
         (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '\t')) {
    ++pos;
  }
  return pos;
}

// Reads the C string literal at `pos` (adjacent literals concatenated),
// undoing the \" and \\ escapes. Sets *end past it; false if there is none.
bool ReadStringLiteral(const std::string& text, size_t pos, std::string* out,
                       size_t* end) {
  out->clear();
  pos = SkipSpace(text, pos);
  if (pos >= text.size() || text[pos] != '"') return false;
  while (pos < text.size() && text[pos] == '"') {
    for (++pos; pos < text.size() && text[pos] != '"'; ++pos) {
      if (text[pos] == '\\' && pos + 1 < text.size()) ++pos;
      out->push_back(text[pos]);
    }
    if (pos >= text.size()) return false;  // unterminated.
    pos = SkipSpace(text, pos + 1);
  }
  *end = pos;
  return true;
}

// The first string-literal argument of every `macro(` call in `source`.
std::vector<std::string> MacroNames(const std::string& source,
                                    const std::string& macro) {
  std::vector<std::string> names;
  const std::string call = macro + "(";
  for (size_t pos = source.find(call); pos != std::string::npos;
       pos = source.find(call, pos + 1)) {
    // Not the tail of a longer identifier (e.g. MY_SUBCASE).
    if (pos > 0 && (std::isalnum(static_cast<unsigned char>(source[pos - 1])) ||
                    source[pos - 1] == '_')) {
      continue;
    }
    std::string name;
    size_t end = 0;
    if (ReadStringLiteral(source, pos + call.size(), &name, &end)) {
      names.push_back(name);
    }
  }
  return names;
}

// The case names of one suite file: test cases and subcases.
struct SuiteFile {
  std::vector<std::string> test_cases;
  std::vector<std::string> subcases;
};

// tests/engine/contract_*.h by file name ("contract_put.h").
std::map<std::string, SuiteFile> SuiteFiles() {
  std::map<std::string, SuiteFile> files;
  const fs::path dir = fs::path(ROCKPOINT_SOURCE_DIR) / "tests" / "engine";
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("contract_") || !name.ends_with(".h")) continue;
    const std::string source = ReadFile(entry.path());
    files[name] = {MacroNames(source, "RP_CONTRACT_CASE"),
                   MacroNames(source, "SUBCASE")};
  }
  return files;
}

struct Citation {
  std::string name;  // the code span's text.
  std::string file;  // "contract_put.h".
};

// Every [`name`](../tests/engine/contract_*.h) link of `doc`.
std::vector<Citation> Citations(const std::string& doc) {
  std::vector<Citation> citations;
  const std::string target = "`](../tests/engine/";
  for (size_t pos = doc.find(target); pos != std::string::npos;
       pos = doc.find(target, pos + 1)) {
    const size_t file_begin = pos + target.size();
    const size_t file_end = doc.find(')', file_begin);
    if (file_end == std::string::npos) break;
    const std::string file = doc.substr(file_begin, file_end - file_begin);
    if (!file.starts_with("contract_") || !file.ends_with(".h")) continue;
    // The link text is "[`name`]": one code span, no backtick inside.
    const size_t open = doc.rfind("[`", pos);
    if (open == std::string::npos) continue;
    const std::string name = doc.substr(open + 2, pos - (open + 2));
    if (name.find('`') != std::string::npos) continue;
    citations.push_back({name, file});
  }
  return citations;
}

std::string ContractDoc() {
  return ReadFile(fs::path(ROCKPOINT_SOURCE_DIR) / "docs" / "CONTRACT.md");
}

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST_CASE("contract doc: the parsers read names as the compiler does") {
  const std::string source =
      "RP_CONTRACT_CASE(\n    \"contract x\") {\n"
      "  SUBCASE(\"a \\\"quoted\\\" name\") {}\n"
      "  SUBCASE(\n      \"wrapped \"\n      \"in two\") {}\n"
      "  MY_SUBCASE(\"not a subcase\") {}\n}\n";
  CHECK(MacroNames(source, "RP_CONTRACT_CASE") ==
        std::vector<std::string>{"contract x"});
  CHECK(MacroNames(source, "SUBCASE") ==
        std::vector<std::string>{"a \"quoted\" name", "wrapped in two"});

  const std::vector<Citation> citations = Citations(
      "text [`contract x`](../tests/engine/contract_x.h), "
      "[`[] and more`](../tests/engine/contract_y.h) and "
      "[plain](../tests/engine/contract_z.h) and "
      "[`file`](../tests/engine/contract_doc_test.cpp)");
  REQUIRE(citations.size() == 2);
  CHECK(citations[0].name == "contract x");
  CHECK(citations[0].file == "contract_x.h");
  CHECK(citations[1].name == "[] and more");
  CHECK(citations[1].file == "contract_y.h");
}

TEST_CASE("contract doc: the suite files define cases") {
  const std::map<std::string, SuiteFile> files = SuiteFiles();
  // contract_helpers.h, contract_harness.h and contract_suite.h define
  // none; the others do.
  size_t with_cases = 0;
  for (const auto& [name, file] : files) {
    if (!file.test_cases.empty()) ++with_cases;
  }
  CHECK(with_cases >= 8);
  CHECK(files.at("contract_put.h").test_cases ==
        std::vector<std::string>{"contract put", "contract get_tuple"});
}

TEST_CASE("contract doc: every case of the suite is cited in CONTRACT.md") {
  const std::vector<Citation> citations = Citations(ContractDoc());
  std::set<std::pair<std::string, std::string>> cited;
  for (const Citation& citation : citations) {
    cited.emplace(citation.file, citation.name);
  }
  for (const auto& [file, names] : SuiteFiles()) {
    for (const std::string& name : names.test_cases) {
      INFO("TEST_CASE \"" << name << "\" of " << file);
      CHECK(cited.count({file, name}) == 1);
    }
    for (const std::string& name : names.subcases) {
      INFO("SUBCASE \"" << name << "\" of " << file);
      CHECK(cited.count({file, name}) == 1);
    }
  }
}

TEST_CASE("contract doc: every citation in CONTRACT.md names a case") {
  const std::map<std::string, SuiteFile> files = SuiteFiles();
  const std::vector<Citation> citations = Citations(ContractDoc());
  CHECK(citations.size() > 50);
  for (const Citation& citation : citations) {
    INFO("[`" << citation.name << "`](" << citation.file << ")");
    const auto file = files.find(citation.file);
    REQUIRE(file != files.end());
    CHECK((Contains(file->second.test_cases, citation.name) ||
           Contains(file->second.subcases, citation.name)));
  }
}

TEST_CASE("contract doc: contract_cases.cpp compiles every file with cases") {
  const std::string cases = ReadFile(fs::path(ROCKPOINT_SOURCE_DIR) / "tests" /
                                     "engine" / "contract_cases.cpp");
  for (const auto& [file, names] : SuiteFiles()) {
    if (names.test_cases.empty()) continue;
    CAPTURE(file);
    CHECK(cases.find("#include \"engine/" + file + "\"") != std::string::npos);
  }
}

}  // namespace
}  // namespace rockpoint::testing
