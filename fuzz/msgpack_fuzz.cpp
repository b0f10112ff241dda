// Fuzz target: the msgpack Value decoder (include/rockpoint/msgpack_codec.h,
// serde/FORMAT.md section 1).
//
// For any input, DecodeMsgpack() gives a whole Value or Corruption. A
// decoded Value
//   * is exactly one msgpack object of the whole input, as msgpack-cxx (an
//     independent parser) reads it too;
//   * nests no deeper than kMaxDepth;
//   * re-encodes canonically: Encode(Decode(Encode(v))) == Encode(v);
//   * renders with DebugString().
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <msgpack.hpp>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint::serde {
namespace {

// Containers from `value` down to its deepest leaf (a scalar is 0 deep).
int Depth(const Value& value) {
  int deepest = 0;
  if (value.is_array()) {
    for (const Value& element : value.as_array()) {
      deepest = std::max(deepest, Depth(element));
    }
    return deepest + 1;
  }
  if (value.is_map()) {
    for (const auto& [key, element] : value.as_map()) {
      deepest = std::max(deepest, Depth(element));
    }
    return deepest + 1;
  }
  return 0;
}

// True when msgpack-cxx reads `bytes` as exactly one object.
bool MsgpackCxxReadsOneObject(std::string_view bytes) {
  try {
    std::size_t offset = 0;
    msgpack::object_handle handle =
        msgpack::unpack(bytes.data(), bytes.size(), offset);
    return offset == bytes.size();
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace
}  // namespace rockpoint::serde

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rockpoint::serde;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const rockpoint::Result<Value> decoded = DecodeMsgpack(bytes);
  if (!decoded.ok()) {
    FUZZ_CHECK(decoded.status().IsCorruption(), decoded.status().ToString());
    FUZZ_CHECK(!decoded.status().message().empty(), "empty error message");
    return 0;
  }
  FUZZ_CHECK(MsgpackCxxReadsOneObject(bytes),
             "msgpack-cxx does not read one object from accepted input");
  FUZZ_CHECK(Depth(*decoded) <= kMaxDepth, "nested too deep");
  const std::string canonical = EncodeMsgpack(*decoded);
  const rockpoint::Result<Value> again = DecodeMsgpack(canonical);
  FUZZ_CHECK(again.ok(), "canonical encoding does not decode: " +
                             again.status().ToString());
  FUZZ_CHECK(EncodeMsgpack(*again) == canonical, "encoding is not canonical");
  FUZZ_CHECK(!decoded->DebugString().empty(), "empty rendering");
  return 0;
}
