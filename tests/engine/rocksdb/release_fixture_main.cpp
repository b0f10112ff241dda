// Writes the release fixtures (release_fixture.h) of this build into a new
// directory:
//
//   release_fixture_main <dir>    writes <dir>/plain and <dir>/encrypted
//
// Run it at a release and commit the output under
// tests/engine/rocksdb/fixtures/<release>/ (without RocksDB's LOG files);
// release_fixture_test.cpp then reads it with every later build.
#include <cstdio>
#include <filesystem>

#include "engine/rocksdb/release_fixture.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"

namespace rockpoint::testing::release_fixture {
namespace {

Status WriteStore(const std::string& path, bool encrypted) {
  RocksDbOptions options;
  options.path = path;
  if (encrypted) options.encryption = EncryptionOptions{Key()};
  RP_ASSIGN_OR_RETURN(auto store, RocksDbCheckpointer::Open(options));
  RP_RETURN_IF_ERROR(WriteCompacted(*store));
  RP_RETURN_IF_ERROR(store->Compact());
  RP_RETURN_IF_ERROR(WriteLogged(*store));
  return store->Close();
}

}  // namespace
}  // namespace rockpoint::testing::release_fixture

int main(int argc, char** argv) {
  namespace fixture = rockpoint::testing::release_fixture;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <new directory>\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir(argv[1]);
  if (std::filesystem::exists(dir)) {
    std::fprintf(stderr, "%s exists\n", argv[1]);
    return 2;
  }
  std::filesystem::create_directories(dir);
  for (bool encrypted : {false, true}) {
    const std::string path =
        (dir / (encrypted ? "encrypted" : "plain")).string();
    const rockpoint::Status status = fixture::WriteStore(path, encrypted);
    if (!status.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), status.ToString().c_str());
      return 1;
    }
  }
  return 0;
}
