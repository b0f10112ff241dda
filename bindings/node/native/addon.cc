// Module entry point of rockpoint_node.node: exports NativeStore (with its
// static openRocksDb / openMemory factories), NativeCursor, ItemStore
// (native/item_store.h) and retentionError (native/convert.h).
#include "native/addon.h"

#include <napi.h>

#include "native/convert.h"
#include "native/cursor.h"
#include "native/item_store.h"
#include "native/store.h"

namespace rockpoint::node {
namespace {

Napi::Object InitModule(Napi::Env env, Napi::Object exports) {
  auto* data = new AddonData();
  env.SetInstanceData<AddonData>(data);  // deleted with the environment.
  Napi::Function store = NativeStore::Init(env);
  Napi::Function cursor = NativeCursor::Init(env);
  data->store_constructor = Napi::Persistent(store);
  data->cursor_constructor = Napi::Persistent(cursor);
  exports.Set("NativeStore", store);
  exports.Set("NativeCursor", cursor);
  exports.Set("ItemStore", ItemStore::Init(env));
  exports.Set("retentionError", Napi::Function::New(env, RetentionError));
  return exports;
}

}  // namespace
}  // namespace rockpoint::node

static Napi::Object InitRockpointNode(Napi::Env env, Napi::Object exports) {
  return rockpoint::node::InitModule(env, exports);
}

NODE_API_MODULE(rockpoint_node, InitRockpointNode)
