// Runtime stored forms: unwrapping tags, the AppendReducer fold.
#include "tools/cli/runtime_forms.h"

#include "rockpoint/msgpack_codec.h"
#include "rockpoint/runtime/channels.h"

namespace rockpoint::cli {

Unwrapped UnwrapRuntimeForm(Value decoded) {
  if (!decoded.is_ext()) return {std::move(decoded), StoredForm::kPlain};
  const serde::Ext& ext = decoded.as_ext();
  StoredForm form = StoredForm::kPlain;
  if (ext.type == runtime::kDeltaSnapshotExtTag) {
    form = StoredForm::kDeltaSnapshot;
  } else if (ext.type == runtime::kOverwriteExtTag) {
    form = StoredForm::kOverwrite;
  } else {
    return {std::move(decoded), StoredForm::kPlain};
  }
  auto inner = serde::DecodeMsgpack(ext.data);
  if (!inner.ok()) return {std::move(decoded), StoredForm::kPlain};
  return {std::move(inner).value(), form};
}

const char* StoredFormName(StoredForm form) {
  switch (form) {
    case StoredForm::kPlain:
      return "";
    case StoredForm::kDeltaSnapshot:
      return "delta snapshot";
    case StoredForm::kOverwrite:
      return "overwrite";
  }
  return "";
}

std::set<std::string> DeltaChannels(const Metadata& metadata) {
  std::set<std::string> channels;
  const Value* counters = metadata.Find("counters_since_delta_snapshot");
  if (counters == nullptr || !counters->is_map()) return channels;
  for (const auto& [channel, unused] : counters->as_map()) {
    channels.insert(channel);
  }
  return channels;
}

std::optional<Value> FoldAppend(const std::optional<Value>& seed,
                                const std::vector<Value>& writes) {
  if (seed && !seed->is_null() && !seed->is_array()) return std::nullopt;
  Value::Array list;
  if (seed && seed->is_array()) list = seed->as_array();
  for (const Value& write : writes) {
    Unwrapped item = UnwrapRuntimeForm(write);
    if (item.form == StoredForm::kOverwrite) {
      if (!item.value.is_null() && !item.value.is_array()) return std::nullopt;
      list = item.value.is_array() ? item.value.as_array() : Value::Array{};
    } else if (item.value.is_array()) {
      list.insert(list.end(), item.value.as_array().begin(),
                  item.value.as_array().end());
    } else {
      list.push_back(std::move(item.value));
    }
  }
  return Value(std::move(list));
}

}  // namespace rockpoint::cli
