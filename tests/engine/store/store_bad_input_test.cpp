// Store bad input: an invalid namespace (empty, an empty label, a label
// with '.', first label "langgraph", deeper than max_namespace_depth), a key
// or label over max_id_bytes, a value that is not a map or encodes over
// max_value_bytes, and invalid options are InvalidArgument and change
// nothing. OpenStore of a scheme other than rocksdb: and memory: is
// NotSupported.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

TEST_CASE("store bad input: a namespace must be a valid one") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"a"}, "k", Obj({{"v", 1}}));
  const std::string before = Everything(h.store());
  for (const Namespace& bad : std::vector<Namespace>{
           {},
           {""},
           {"a", ""},
           {"", "a"},
           {"a.b"},
           {"."},
           {"a", "b.c"},
           {"a", "b", "c."},
           {"langgraph"},
           {"langgraph", "x"},
       }) {
    CAPTURE(NsName(bad));
    STORE_CHECK_INVALID(h.store().Put(MakePut(bad, "k", Obj({{"v", 2}}))));
    // A delete names a namespace as a put does.
    STORE_CHECK_INVALID(h.store().Put(MakePut(bad, "k", std::nullopt)));
    STORE_CHECK_INVALID(h.store().Delete(bad, "k"));
  }
  CHECK(Everything(h.store()) == before);
  // Only the first label is reserved, and only exactly "langgraph".
  for (const Namespace& good : std::vector<Namespace>{{"x", "langgraph"},
                                                      {"langgraphs"},
                                                      {"LangGraph"},
                                                      {"a", "b", "c"}}) {
    CAPTURE(NsName(good));
    PutItem(h.store(), good, "k", Obj({{"v", 3}}));
    CHECK(MustGetItem(h.store(), good, "k").value == Obj({{"v", 3}}));
  }
}

TEST_CASE("store bad input: keys and labels at most max_id_bytes") {
  StoreOpenOptions options;
  options.limits.max_id_bytes = 8;
  StoreHarness h(EachBackend(), options);
  PutItem(h.store(), {"12345678"}, "12345678", Obj({{"v", 1}}));
  CHECK(MustGetItem(h.store(), {"12345678"}, "12345678").value ==
        Obj({{"v", 1}}));
  const std::string before = Everything(h.store());
  STORE_CHECK_INVALID(h.store().Put(MakePut({"a"}, "123456789", Obj())));
  STORE_CHECK_INVALID(h.store().Put(MakePut({"123456789"}, "k", Obj())));
  STORE_CHECK_INVALID(
      h.store().Put(MakePut({"a", "b", "123456789"}, "k", Obj())));
  CHECK(Everything(h.store()) == before);
}

TEST_CASE("store bad input: the default id limit is 64 KiB") {
  StoreHarness h(EachBackend());
  const std::string largest(size_t{64} << 10, 'k');
  const std::string too_large = largest + "k";
  PutItem(h.store(), {"a"}, largest, Obj({{"v", 1}}));
  PutItem(h.store(), {largest}, "k", Obj({{"v", 2}}));
  CHECK(MustGetItem(h.store(), {"a"}, largest).value == Obj({{"v", 1}}));
  CHECK(MustGetItem(h.store(), {largest}, "k").value == Obj({{"v", 2}}));
  const std::string before = Everything(h.store());
  STORE_CHECK_INVALID(h.store().Put(MakePut({"a"}, too_large, Obj())));
  STORE_CHECK_INVALID(h.store().Put(MakePut({too_large}, "k", Obj())));
  CHECK(Everything(h.store()) == before);
}

TEST_CASE("store bad input: namespaces at most max_namespace_depth deep") {
  SUBCASE("a set limit") {
    StoreOpenOptions options;
    options.limits.max_namespace_depth = 3;
    StoreHarness h(EachBackend(), options);
    PutItem(h.store(), {"a", "b", "c"}, "k", Obj());
    const std::string before = Everything(h.store());
    STORE_CHECK_INVALID(
        h.store().Put(MakePut({"a", "b", "c", "d"}, "k", Obj())));
    CHECK(Everything(h.store()) == before);
  }
  SUBCASE("the default, 64") {
    StoreHarness h(EachBackend());
    Namespace deepest(64, "l");
    PutItem(h.store(), deepest, "k", Obj());
    CHECK(MustGetItem(h.store(), deepest, "k").ns == deepest);
    const std::string before = Everything(h.store());
    deepest.push_back("l");
    STORE_CHECK_INVALID(h.store().Put(MakePut(deepest, "k", Obj())));
    CHECK(Everything(h.store()) == before);
  }
}

TEST_CASE("store bad input: the value must be a map") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"a"}, "k", Obj({{"v", 1}}));
  const std::string before = Everything(h.store());
  for (const Value& bad : std::vector<Value>{
           Value(), Value(true), Value(5), Value(1.5), Value("text"),
           Value(serde::Bytes{"b"}), Arr({Obj()}), Value(serde::Ext{1, "x"})}) {
    CAPTURE(bad);
    // A null is a value that is not a map, not a delete.
    STORE_CHECK_INVALID(h.store().Put(MakePut({"a"}, "k", bad)));
    STORE_CHECK_INVALID(h.store().Put(MakePut({"a"}, "new", bad)));
  }
  CHECK(Everything(h.store()) == before);
}

TEST_CASE("store bad input: an encoded value at most max_value_bytes") {
  StoreOpenOptions options;
  options.limits.max_value_bytes = 100;
  StoreHarness h(EachBackend(), options);
  PutItem(h.store(), {"a"}, "k", Obj({{"text", std::string(20, 'x')}}));
  const std::string before = Everything(h.store());
  STORE_CHECK_INVALID(h.store().Put(
      MakePut({"a"}, "k", Obj({{"text", std::string(200, 'x')}}))));
  STORE_CHECK_INVALID(h.store().Put(
      MakePut({"a"}, "new", Obj({{"text", std::string(101, 'x')}}))));
  CHECK(Everything(h.store()) == before);
}

TEST_CASE(
    "store bad input: a value nesting deeper than Values may is "
    "refused") {
  StoreHarness h(EachBackend());
  Value deep = Obj();
  for (int level = 0; level < serde::kMaxDepth + 10; ++level) {
    deep = Obj({{"k", std::move(deep)}});
  }
  STORE_CHECK_INVALID(h.store().Put(MakePut({"a"}, "k", std::move(deep))));
  CHECK(Everything(h.store()) == "namespaces: ");
}

TEST_CASE("store bad input: an unknown filter operator, even on no items") {
  StoreHarness h(EachBackend());
  SearchOp op = SearchUnder({});
  op.filter = {{"field", Obj({{"$foo", 1}})}};
  STORE_CHECK_INVALID(h.store().Search(op).status());
}

TEST_CASE(
    "store bad input: schemes other than rocksdb: and memory: are "
    "NotSupported") {
  testing::TempDir dir("store");
  for (const std::string& url :
       {"sqlite:" + dir.Sub("s.db"), "jsonl:" + dir.Sub("s.jsonl"),
        std::string("postgresql:///db?host=/tmp"),
        std::string("postgres://u@h/db"), "memory:" + dir.Sub("m")}) {
    CAPTURE(url);
    const Status status = OpenStore(url).status();
    CHECK_MESSAGE(status.IsNotSupported(), status.ToString());
  }
  // Nothing was created.
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("store bad input: a bare path is a RocksDB directory") {
  testing::TempDir dir("store");
  Result<std::unique_ptr<Store>> opened = OpenStore(dir.Sub("bare"));
  REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
  CHECK(opened.value()->name() == "rocksdb:" + dir.Sub("bare"));
  STORE_REQUIRE_OK(opened.value()->Close());
  CHECK(std::filesystem::is_directory(dir.Sub("bare")));
}

TEST_CASE("store bad input: a directory of other files is not a store") {
  testing::TempDir dir("store");
  // An existing empty directory becomes a store.
  std::filesystem::create_directory(dir.Sub("empty"));
  Result<std::unique_ptr<Store>> empty =
      OpenStore("rocksdb:" + dir.Sub("empty"));
  REQUIRE_MESSAGE(empty.ok(), empty.status().ToString());
  STORE_REQUIRE_OK(empty.value()->Close());
  // One holding someone's files does not (store.h: "InvalidArgument for a
  // directory that is not a rockpoint store"), and is left as it was.
  std::filesystem::create_directory(dir.Sub("other"));
  { std::ofstream(dir.Sub("other/notes.txt")) << "not a store"; }
  STORE_CHECK_INVALID(OpenStore("rocksdb:" + dir.Sub("other")).status());
  std::string names;
  for (const auto& entry :
       std::filesystem::directory_iterator(dir.Sub("other"))) {
    names += entry.path().filename().string() + " ";
  }
  CHECK(names == "notes.txt ");
  // A file is not a directory.
  STORE_CHECK_INVALID(
      OpenStore("rocksdb:" + dir.Sub("other/notes.txt")).status());
}

TEST_CASE("store bad input: each memory: store is a store of its own") {
  Result<std::unique_ptr<Store>> first = OpenStore("memory:");
  Result<std::unique_ptr<Store>> second = OpenStore("memory:");
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  PutItem(*first.value(), {"a"}, "k", Obj());
  CHECK(GetItem(*first.value(), {"a"}, "k").has_value());
  CHECK_FALSE(GetItem(*second.value(), {"a"}, "k").has_value());
}

TEST_CASE("store bad input: invalid TTL options are refused at OpenStore") {
  const Backend backend = EachBackend();
  testing::TempDir dir("store");
  const std::string url =
      backend == Backend::kMemory ? "memory:" : "rocksdb:" + dir.Sub("db");
  for (const double minutes :
       {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    CAPTURE(minutes);
    StoreOpenOptions options;
    options.ttl.default_ttl_minutes = minutes;
    STORE_CHECK_INVALID(OpenStore(url, options).status());
    options = {};
    options.ttl.sweep_interval_minutes = minutes;
    STORE_CHECK_INVALID(OpenStore(url, options).status());
  }
}

}  // namespace
}  // namespace rockpoint::store_testing
