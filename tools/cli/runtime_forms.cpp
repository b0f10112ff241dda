// Runtime stored forms: unwrapping tags, the AppendReducer fold.
#include "tools/cli/runtime_forms.h"

namespace rockpoint::cli {

using formats::StoredForm;

Unwrapped UnwrapRuntimeForm(Value decoded) {
  const StoredForm form = formats::StoredFormOf(decoded);
  if (form == StoredForm::kPlain) return {std::move(decoded), form};
  Result<Value> inner = formats::UnwrapStoredForm(decoded);
  if (!inner.ok()) return {std::move(decoded), StoredForm::kPlain};
  return {std::move(inner).value(), form};
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
