// The canonical msgpack writer (msgpack_writer.h), on msgpack-c's packer.
#include "serde/msgpack_writer.h"

#include <cmath>
#include <cstring>
#include <msgpack.hpp>

namespace rockpoint::serde {
namespace internal {
namespace {

// msgpack::packer's output stream: appends to a std::string.
class StringSink {
 public:
  explicit StringSink(std::string* out) : out_(out) {}
  void write(const char* data, size_t size) { out_->append(data, size); }

 private:
  std::string* out_;
};

using Packer = msgpack::packer<StringSink>;

}  // namespace

void AppendNil(std::string* out) {
  StringSink sink(out);
  Packer(sink).pack_nil();
}

void AppendBool(bool b, std::string* out) {
  StringSink sink(out);
  if (b) {
    Packer(sink).pack_true();
  } else {
    Packer(sink).pack_false();
  }
}

void AppendInt(int64_t i, std::string* out) {
  StringSink sink(out);
  Packer(sink).pack_int64(i);  // smallest form, as the spec recommends.
}

void AppendFloat64(double d, std::string* out) {
  // Not packer::pack_double: msgpack-c 4.1 writes integral doubles as ints,
  // which would turn a double into an int on the way back.
  uint64_t bits;
  if (std::isnan(d)) {
    bits = 0x7ff8000000000000ULL;
  } else {
    std::memcpy(&bits, &d, sizeof(bits));
  }
  char buf[9];
  buf[0] = static_cast<char>(0xcb);
  for (int i = 0; i < 8; ++i) {
    buf[1 + i] = static_cast<char>(bits >> (56 - 8 * i));
  }
  out->append(buf, sizeof(buf));
}

void AppendStr(std::string_view s, std::string* out) {
  StringSink sink(out);
  Packer packer(sink);
  packer.pack_str(static_cast<uint32_t>(s.size()));
  packer.pack_str_body(s.data(), static_cast<uint32_t>(s.size()));
}

void AppendBin(std::string_view b, std::string* out) {
  StringSink sink(out);
  Packer packer(sink);
  packer.pack_bin(static_cast<uint32_t>(b.size()));
  packer.pack_bin_body(b.data(), static_cast<uint32_t>(b.size()));
}

void AppendExt(int8_t type, std::string_view data, std::string* out) {
  StringSink sink(out);
  Packer packer(sink);
  packer.pack_ext(data.size(), type);
  packer.pack_ext_body(data.data(), static_cast<uint32_t>(data.size()));
}

void AppendArrayHeader(size_t size, std::string* out) {
  StringSink sink(out);
  Packer(sink).pack_array(static_cast<uint32_t>(size));
}

void AppendMapHeader(size_t size, std::string* out) {
  StringSink sink(out);
  Packer(sink).pack_map(static_cast<uint32_t>(size));
}

}  // namespace internal

}  // namespace rockpoint::serde
