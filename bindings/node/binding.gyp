# node-gyp build of rockpoint_node.node: the N-API glue in native/ linked
# against rockpoint's static libraries (built by CMake into
# rockpoint_build_dir) and the system RocksDB. scripts/build.mjs drives it:
#   node-gyp configure --nodedir=/usr -- -Drockpoint_build_dir=<dir>
{
  "variables": {
    "rockpoint_build_dir%": "<(module_root_dir)/../../build",
    "rockpoint_source_dir%": "<(module_root_dir)/../.."
  },
  "targets": [
    {
      "target_name": "rockpoint_node",
      "sources": [
        "native/addon.cc",
        "native/convert_in.cc",
        "native/convert_out.cc",
        "native/cursor.cc",
        "native/store.cc"
      ],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "<(rockpoint_source_dir)",
        "<(module_root_dir)"
      ],
      "defines": [
        "NAPI_VERSION=8",
        "NAPI_CPP_EXCEPTIONS",
        "NODE_ADDON_API_DISABLE_DEPRECATED"
      ],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17"],
      "cflags_cc": ["-std=c++20", "-fexceptions", "-frtti", "-fPIC",
                    "-Wno-missing-field-initializers"],
      "libraries": [
        "<(rockpoint_build_dir)/engine/libengine_rocksdb.a",
        "<(rockpoint_build_dir)/engine/libengine.a",
        "<(rockpoint_build_dir)/serde/libserde.a",
        "<(rockpoint_build_dir)/keys/libkeys.a",
        "-lrocksdb",
        "-lpthread"
      ]
    }
  ]
}
