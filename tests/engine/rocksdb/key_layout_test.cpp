// rocksdb_layout::TuplePrefixLength, the prefix extractors' one function:
// the byte length of a tuple's first elements, escaped NULs included.
#include "engine/rocksdb/key_layout.h"

#include <doctest/doctest.h>

#include <string>

#include "keys/tuple.h"

namespace rockpoint::testing {
namespace {

using rocksdb_layout::TuplePrefixLength;

std::string Tuple(std::initializer_list<std::string> texts) {
  keys::TupleWriter writer;
  for (const std::string& text : texts) writer.AddString(text);
  return writer.data();
}

TEST_CASE("TuplePrefixLength: whole elements, escaped NULs and 0xFF bytes") {
  const std::string nul("a\0b\0", 4);
  const std::string key = Tuple({"cp", nul, "\xff\xff", "id"});
  CHECK(TuplePrefixLength(key, 1) == Tuple({"cp"}).size());
  CHECK(TuplePrefixLength(key, 2) == Tuple({"cp", nul}).size());
  CHECK(TuplePrefixLength(key, 3) == Tuple({"cp", nul, "\xff\xff"}).size());
  CHECK(TuplePrefixLength(key, 4) == key.size());
  CHECK_FALSE(TuplePrefixLength(key, 5).has_value());
  CHECK(TuplePrefixLength(key, 0) == 0u);
}

TEST_CASE("TuplePrefixLength: integers and nulls count as elements") {
  keys::TupleWriter writer;
  writer.AddString("wr").AddNull().AddInt(-3).AddInt(0).AddInt(1).AddString("");
  const std::string key = writer.data();
  CHECK(TuplePrefixLength(key, 6) == key.size());
  CHECK(TuplePrefixLength(key, 3) < TuplePrefixLength(key, 4));
}

TEST_CASE("TuplePrefixLength: a cut element is not whole") {
  const std::string key = Tuple({"cp", std::string("t\0", 2)});
  const size_t head = Tuple({"cp"}).size();
  // 02 't' 00 FF 00: cut before the NUL, inside its escape, and before the
  // terminator. Cut right after the NUL, the rest reads as the whole
  // element "t": a tuple's prefix can be another tuple.
  for (const size_t cut : {head + 1, head + 2, head + 4}) {
    CAPTURE(cut);
    CHECK(TuplePrefixLength(key.substr(0, cut), 2) == std::nullopt);
  }
  CHECK(TuplePrefixLength(key.substr(0, head + 3), 2) ==
        Tuple({"cp", "t"}).size());
  // An integer's payload cut short.
  keys::TupleWriter writer;
  writer.AddInt(int64_t{1} << 40);
  const std::string number = writer.data();
  CHECK(TuplePrefixLength(number, 1) == number.size());
  CHECK_FALSE(TuplePrefixLength(number.substr(0, number.size() - 1), 1));
}

}  // namespace
}  // namespace rockpoint::testing
