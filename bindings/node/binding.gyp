# node-gyp build of rockpoint_node.node: the N-API glue in native/ built
# against the installed rockpoint package (headers and static libraries,
# found through rockpoint.pc) and the system RocksDB. scripts/build.mjs
# installs the package into a prefix and points PKG_CONFIG_PATH at it.
{
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
        "<(module_root_dir)"
      ],
      "defines": [
        "NAPI_VERSION=8",
        "NAPI_CPP_EXCEPTIONS",
        "NODE_ADDON_API_DISABLE_DEPRECATED"
      ],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17"],
      "cflags_cc": ["-fexceptions", "-frtti", "-fPIC",
                    "-Wno-missing-field-initializers",
                    "<!@(pkg-config --cflags rockpoint)"],
      "libraries": ["<!@(pkg-config --libs rockpoint)"]
    }
  ]
}
