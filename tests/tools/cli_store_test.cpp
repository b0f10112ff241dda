// `rockpoint store ...` end to end: items in and out, search with filters,
// namespaces, stats, sweep, verify (which finds a damaged index), and
// export -> import -> export byte-identical with vectors and expiry; the
// top-level `verify` of a directory that holds checkpoints and items checks
// both.
#include "engine/store/store_backend.h"
#include "engine/store/store_layout.h"
#include "rockpoint/store.h"
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

struct StoreFixture {
  TempDir dir;
  std::string store = dir.Sub("items");
  RunResult Run(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--store", store, "store"});
    return RunCli(args);
  }
  RunResult Ok(std::vector<std::string> args) const {
    RunResult result = Run(std::move(args));
    INFO("stderr: " << result.err);
    REQUIRE(result.status == 0);
    return result;
  }
};

// A store with vectors, an expiring item and odd keys, written through the
// library (the CLI computes no embeddings).
void MakeVectorStore(const std::string& path) {
  StoreOpenOptions options;
  options.index = StoreIndexOptions{};
  options.index->dims = 3;
  auto store = OpenStore("rocksdb:" + path, options);
  REQUIRE(store.ok());
  PutOp a;
  a.ns = {"docs", "en"};
  a.key = "a";
  a.value = Value(Value::Map{{"text", "hello"}, {"n", 1}});
  a.vectors = {{"text", {1.0f, 0.5f, -0.25f}}, {"title", {0, 1, 0}}};
  PutOp b;
  b.ns = {"docs", "de"};
  b.key = std::string("k\0\xff:", 4);
  b.value = Value(Value::Map{{"text", "hallo"}, {"pi", 3.14159}});
  b.ttl = ItemTtl::Minutes(90);
  REQUIRE((*store)->Batch({a, b}).ok());
  REQUIRE((*store)->Close().ok());
}

TEST_CASE("store put, get, search, namespaces and delete") {
  StoreFixture f;
  f.Ok({"put", "users.alice", "prefs", R"({"theme":"dark","age":30})"});
  f.Ok({"put", "users.bob", "prefs", R"({"theme":"light","age":40})", "--ttl",
        "60"});
  Json alice = ParseJson(f.Ok({"--json", "get", "users.alice", "prefs"}).out);
  CHECK(alice["namespace"] == "users.alice");
  CHECK(alice["value"] == ParseJson(R"({"age":30,"theme":"dark"})"));
  CHECK(alice["expires_at"].is_null());
  Json bob = ParseJson(f.Ok({"--json", "get", "users.bob", "prefs"}).out);
  CHECK(bob["expires_at"].is_string());

  Json found = ParseJson(
      f.Ok({"--json", "search", "users", "--filter", R"(age={"$gt":35})"}).out);
  REQUIRE(found.size() == 1);
  CHECK(found[0]["namespace"] == "users.bob");
  // Newest updated first, limit and offset.
  found = ParseJson(f.Ok({"--json", "search", "--limit", "1"}).out);
  REQUIRE(found.size() == 1);
  CHECK(found[0]["namespace"] == "users.bob");
  found = ParseJson(f.Ok({"--json", "search", "--offset", "1"}).out);
  REQUIRE(found.size() == 1);
  CHECK(found[0]["namespace"] == "users.alice");

  CHECK(
      ParseJson(f.Ok({"--json", "namespaces"}).out) ==
      ParseJson(R"([{"namespace":"users.alice"},{"namespace":"users.bob"}])"));
  CHECK(ParseJson(f.Ok({"--json", "namespaces", "--max-depth", "1"}).out) ==
        ParseJson(R"([{"namespace":"users"}])"));
  CHECK(ParseJson(f.Ok({"--json", "namespaces", "--suffix", "*.bob"}).out) ==
        ParseJson(R"([{"namespace":"users.bob"}])"));

  f.Ok({"delete", "users.bob", "prefs"});
  RunResult missing = f.Run({"get", "users.bob", "prefs"});
  CHECK(missing.status == 1);
  CHECK(missing.err.find("NotFound") != std::string::npos);
}

TEST_CASE("store refuses bad input with one line and writes nothing") {
  StoreFixture f;
  f.Ok({"put", "a", "k", R"({"x":1})"});
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {"put", "langgraph.x", "k", "{}"},
           {"put", "a..b", "k", "{}"},
           {"put", "a", "k", "[1,2]"},
           {"put", "a", "k", "{not json"},
           {"put", "a", "k", "{}", "--ttl", "0"},
           {"search", "--filter", R"(x={"$like":1})"},
           {"search", "--filter", "noequals"}}) {
    RunResult result = f.Run(args);
    INFO(args[0] << " " << args[1]);
    CHECK(result.status == 1);
    CHECK(result.err.rfind("rockpoint: error: ", 0) == 0);
    CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  }
  Json stats = ParseJson(f.Ok({"--json", "stats"}).out);
  CHECK(stats["items"] == 1);
  // A missing store is not created by a read.
  RunResult absent =
      RunCli({"--store", f.dir.Sub("absent"), "store", "namespaces"});
  CHECK(absent.status == 1);
  CHECK(!std::filesystem::exists(f.dir.Sub("absent")));
}

TEST_CASE("store export -> import -> export is byte-identical") {
  StoreFixture f;
  MakeVectorStore(f.store);
  const std::string first = f.Ok({"export"}).out;
  std::vector<Json> lines = ParseJsonLines(first);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] ==
        ParseJson(R"({"format":"rockpoint-store-export","version":1})"));
  // Key order: namespace ("docs","de") before ("docs","en").
  CHECK(lines[1]["ns"] == ParseJson(R"(["docs","de"])"));
  CHECK(lines[1]["key"] == ParseJson(R"({"b64":"awD/Og=="})"));
  CHECK(lines[1]["ttl_minutes"] == 90.0);
  CHECK(lines[2]["vectors"].size() == 2);

  const std::string file = f.dir.Sub("export.jsonl");
  WriteFile(file, first);
  const std::string copy = f.dir.Sub("copy");
  RunResult imported = RunCli({"--store", copy, "store", "import", file});
  INFO(imported.err);
  REQUIRE(imported.status == 0);
  const std::string second = RunOk({"--store", copy, "store", "export"}).out;
  CHECK(second == first);
  CHECK(ParseJson(RunOk({"--store", copy, "--json", "store", "verify"})
                      .out)["sound"] == true);
  // The copy answers vector queries like the original.
  StoreOpenOptions options;
  options.index = StoreIndexOptions{};
  options.index->dims = 3;
  auto store = OpenStore(copy, options);
  REQUIRE(store.ok());
  SearchOp search;
  search.query = std::vector<float>{0, 1, 0};
  auto found = (*store)->Search(search);
  REQUIRE(found.ok());
  REQUIRE(!found->empty());
  CHECK((*found)[0].key == "a");
  CHECK((*found)[0].score.value() == doctest::Approx(1.0));
}

TEST_CASE("store import refuses a bad export and writes nothing") {
  StoreFixture f;
  const std::string file = f.dir.Sub("bad.jsonl");
  WriteFile(file,
            "{\"format\":\"rockpoint-store-export\",\"version\":1}\n"
            "{\"ns\":[\"a\"],\"key\":\"k\",\"value\":{},\"created_at_us\":1,"
            "\"updated_at_us\":1,\"vectors\":[]}\n"
            "{\"ns\":[\"a\"],\"key\":\"k2\",\"value\":[],\"vectors\":[]}\n");
  RunResult result = f.Run({"import", file});
  CHECK(result.status == 1);
  CHECK(result.err.find("line 3") != std::string::npos);
  CHECK(!std::filesystem::exists(f.store));
  WriteFile(file, "{\"format\":\"rockpoint-export\",\"version\":1}\n");
  result = f.Run({"import", file});
  CHECK(result.status == 1);
  CHECK(result.err.find("not an item store export") != std::string::npos);
}

TEST_CASE("store sweep deletes expired items; verify finds a bad index") {
  StoreFixture f;
  {
    StoreOpenOptions options;
    int64_t now = 1'000'000;
    options.clock = [&now] { return now; };
    auto store = OpenStore(f.store, options);
    REQUIRE(store.ok());
    PutOp put;
    put.ns = {"t"};
    put.key = "soon";
    put.value = Value(Value::Map{});
    put.ttl = ItemTtl::Minutes(1);
    REQUIRE((*store)->Put(put).ok());
    REQUIRE((*store)->Close().ok());
  }
  // The item expired long ago by the system clock.
  CHECK(ParseJson(f.Ok({"--json", "stats"}).out)["expired_items"] == 1);
  CHECK(ParseJson(f.Ok({"--json", "sweep"}).out)["swept"] == 1);
  Json stats = ParseJson(f.Ok({"--json", "stats"}).out);
  CHECK(stats["items"] == 0);
  CHECK(stats["expiry_entries"] == 0);
  CHECK(stats["namespaces"] == 0);

  f.Ok({"put", "t", "k", "{}"});
  {
    // Damage: a namespace count that disagrees with the items.
    auto backend = store_internal::OpenRocksDbStoreBackend({.path = f.store});
    REQUIRE(backend.ok());
    REQUIRE((*backend)
                ->Write({{store_internal::StoreFamily::kNamespaces,
                          store_internal::NamespaceKey({"t"}), "7"}},
                        true)
                .ok());
    REQUIRE((*backend)->Close().ok());
  }
  RunResult verify = f.Run({"--json", "verify"});
  CHECK(verify.status == 2);
  Json report = ParseJson(verify.out);
  CHECK(report["sound"] == false);
  REQUIRE(report["problems"].size() == 1);
  CHECK(report["problems"][0]["problem"].get<std::string>().find(
            "counts 7 items, holds 1") != std::string::npos);
}

TEST_CASE("verify checks the item store beside the checkpoints") {
  TempDir dir;
  const std::string path = dir.Sub("agent");
  MakeFixtureStore(path);
  // Without an item store, verify reports checkpoints only.
  Json alone = ParseJson(RunOk({"verify", "--json", "--store", path}).out);
  CHECK(alone["sound"] == true);
  CHECK_FALSE(alone.contains("item_store"));

  RunOk({"--store", path, "store", "put", "users.alice", "prefs",
         R"({"theme":"dark"})"});
  Json both = ParseJson(RunOk({"verify", "--json", "--store", path}).out);
  CHECK(both["sound"] == true);
  CHECK(both["checkpoints"].get<int>() > 0);
  CHECK(both["item_store"]["items"] == 1);
  CHECK(both["item_store"]["sound"] == true);
  // The checkpoints are still there beside the items.
  RunOk({"threads", "--store", path});

  {
    // Damage the item store: a namespace count that disagrees.
    auto backend = store_internal::OpenRocksDbStoreBackend({.path = path});
    REQUIRE(backend.ok());
    REQUIRE(
        (*backend)
            ->Write({{store_internal::StoreFamily::kNamespaces,
                      store_internal::NamespaceKey({"users", "alice"}), "3"}},
                    true)
            .ok());
    REQUIRE((*backend)->Close().ok());
  }
  RunResult verify = RunCli({"verify", "--json", "--store", path});
  CHECK(verify.status == 2);
  Json report = ParseJson(verify.out);
  CHECK(report["sound"] == false);
  CHECK(report["errors"] == 0);  // the checkpoints are sound
  CHECK(report["item_store"]["sound"] == false);
  CHECK(report["item_store"]["problems"].size() == 1);
}

}  // namespace
}  // namespace rockpoint::cli_test
