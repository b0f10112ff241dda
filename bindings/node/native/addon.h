// Per-environment data of the addon: the constructors of its wrapped
// classes, so that workers can create instances when they complete.
//
// Thread-safety: JS thread only.
#pragma once

#include <napi.h>

namespace rockpoint::node {

struct AddonData {
  Napi::FunctionReference store_constructor;
  Napi::FunctionReference cursor_constructor;
};

inline AddonData& GetAddonData(Napi::Env env) {
  return *env.GetInstanceData<AddonData>();
}

}  // namespace rockpoint::node
