# Finds what the selected parts of the build need: the library's own
# dependencies always, the tools', tests' and bench's only when they are on.
find_package(Threads REQUIRED)
find_package(RocksDB REQUIRED CONFIG)
find_package(SQLite3 REQUIRED)
# libpq (Debian: libpq-dev) for the PostgreSQL backend: CMake's FindPostgreSQL
# module, target PostgreSQL::PostgreSQL; the client library and its headers
# are enough (the server headers are only for its Server component).
find_package(PostgreSQL REQUIRED)
# OpenSSL's libcrypto (Debian: libssl-dev) for encryption at rest
# (AES-256-GCM, docs/ENCRYPTION.md).
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
# xxHash (Debian: libxxhash-dev) for record checksums, header-only.
find_path(ROCKPOINT_XXHASH_INCLUDE_DIR xxhash.h)
if(NOT ROCKPOINT_XXHASH_INCLUDE_DIR)
  message(FATAL_ERROR "xxhash.h not found: install libxxhash-dev")
endif()
find_package(msgpack-cxx CONFIG QUIET)
if(NOT TARGET msgpack-cxx)
  find_package(msgpack REQUIRED CONFIG)
endif()
# Debian's msgpack-cxx 4.1 exports the target as msgpackc-cxx (config package
# "msgpack"); upstream 4.1 calls it msgpack-cxx.
if(TARGET msgpackc-cxx)
  set(ROCKPOINT_MSGPACK_TARGET msgpackc-cxx)
else()
  set(ROCKPOINT_MSGPACK_TARGET msgpack-cxx)
endif()
if(ROCKPOINT_BUILD_RUNTIME)
  find_package(Boost 1.74 REQUIRED)
endif()
if(ROCKPOINT_BUILD_TESTS)
  find_package(doctest REQUIRED)
endif()
# nlohmann_json (header-only): the JSONL backend's journal and the CLI's
# export format. Only needed to build; installed libraries do not ask for it.
find_package(nlohmann_json REQUIRED)
if(ROCKPOINT_BUILD_TOOLS OR ROCKPOINT_BUILD_BENCH OR ROCKPOINT_BUILD_TESTS)
  find_package(CLI11 REQUIRED)
endif()

# RocksDB: the shared library by default. ROCKPOINT_ROCKSDB_STATIC links
# librocksdb.a instead, for executables; Debian's archive is built with
# local-exec TLS and cannot go into a shared object (a Python extension or a
# Node addon), so the bindings link the shared library.
option(ROCKPOINT_ROCKSDB_STATIC "Link RocksDB statically" OFF)
if(ROCKPOINT_ROCKSDB_STATIC)
  set(ROCKPOINT_ROCKSDB_TARGET RocksDB::rocksdb)
else()
  set(ROCKPOINT_ROCKSDB_TARGET RocksDB::rocksdb-shared)
endif()
# hnswlib (Debian's libhnswlib-dev, header-only): the item store's
# approximate vector index, compiled into rockpoint_store only.
find_path(HNSWLIB_INCLUDE_DIR hnswlib/hnswlib.h)
if(NOT HNSWLIB_INCLUDE_DIR)
  message(FATAL_ERROR "hnswlib/hnswlib.h not found: install libhnswlib-dev")
endif()
