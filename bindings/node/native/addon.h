// Per-environment data of the addon: the constructors of its wrapped
// classes, so that workers can create instances when they complete, and the
// writer pool's completion channel (writer_pool.h).
//
// Thread-safety: JS thread only.
#pragma once

#include <napi.h>

#include <cstddef>

namespace rockpoint::node {

class WriterJob;
void CompleteWrite(Napi::Env env, Napi::Function, void*, WriterJob* job);
using WriterTsfn =
    Napi::TypedThreadSafeFunction<void, WriterJob, &CompleteWrite>;

struct AddonData {
  Napi::FunctionReference store_constructor;
  Napi::FunctionReference cursor_constructor;
  // Created on the first synced write; referenced while writes_in_flight > 0.
  WriterTsfn writer_tsfn;
  size_t writes_in_flight = 0;
};

inline AddonData& GetAddonData(Napi::Env env) {
  return *env.GetInstanceData<AddonData>();
}

}  // namespace rockpoint::node
