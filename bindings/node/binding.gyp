# node-gyp build of rockpoint_node.node: the N-API glue in native/ (the
# checkpoint saver's NativeStore and the item store's ItemStore) linked
# statically with the rockpoint libraries that scripts/build.mjs installed
# into build/rockpoint-prefix, dynamically with the system's RocksDB
# (scripts/gyp_vars.mjs gives the flags and says why) and OpenSSL's
# libcrypto (AES-256-GCM of encryption at rest, which the static engine
# library calls; Debian: libssl-dev to build, libssl3 to run). Build it with
# scripts/build.mjs.
{
  "targets": [
    {
      "target_name": "rockpoint_node",
      "sources": [
        "native/addon.cc",
        "native/convert_in.cc",
        "native/convert_out.cc",
        "native/cursor.cc",
        "native/item_convert.cc",
        "native/item_store.cc",
        "native/store.cc",
        "native/writer_pool.cc"
      ],
      "include_dirs": [
        "<!@(node scripts/gyp_vars.mjs include)",
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
                    "-fvisibility=hidden",
                    "-Wno-missing-field-initializers"],
      "libraries": ["<!@(node scripts/gyp_vars.mjs libs)", "-lcrypto"]
    }
  ]
}
