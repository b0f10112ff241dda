// Payload rendering (see value_json.h).
#include "tools/cli/value_json.h"

#include "rockpoint/msgpack_codec.h"
#include "tools/cli/readable_values.h"
#include "tools/cli/runtime_forms.h"

namespace rockpoint::cli {
namespace {

// A "json" payload that parses within kMaxJsonDepth.
bool IsRenderableJson(const TypedValue& payload) {
  return payload.type == "json" &&
         JsonNestingDepth(payload.bytes) <= kMaxJsonDepth &&
         Json::accept(payload.bytes);
}

}  // namespace

std::optional<Value> DecodePayload(const TypedValue& payload) {
  if (payload.type != serde::kMsgpackType) return std::nullopt;
  auto value = serde::DecodeMsgpack(payload.bytes);
  if (!value.ok()) return std::nullopt;
  return std::move(value).value();
}

Json PayloadToJson(const TypedValue& payload, PayloadView view) {
  Json out = Json::object();
  out["type"] = TextToJson(payload.type);
  if (view == PayloadView::kDecoded) {
    if (auto value = DecodePayload(payload)) {
      Unwrapped unwrapped = UnwrapRuntimeForm(std::move(*value));
      out["value"] = ReadableJson(unwrapped.value);
      if (unwrapped.form != StoredForm::kPlain) {
        out["form"] = StoredFormName(unwrapped.form);
      }
      return out;
    }
    if (IsRenderableJson(payload)) {
      out["value"] = ReadableLangChainJson(Json::parse(payload.bytes));
      return out;
    }
  }
  out["b64"] = Base64Encode(payload.bytes);
  return out;
}

std::string PayloadToText(const TypedValue& payload, PayloadView view) {
  if (view == PayloadView::kDecoded) {
    if (auto value = DecodePayload(payload)) {
      Unwrapped unwrapped = UnwrapRuntimeForm(std::move(*value));
      const std::string form = StoredFormName(unwrapped.form);
      return (form.empty() ? "" : form + ": ") + ReadableText(unwrapped.value);
    }
    if (IsRenderableJson(payload)) {
      return ReadableLangChainJson(Json::parse(payload.bytes)).dump();
    }
  }
  return Printable(payload.type) + " b64:" + Base64Encode(payload.bytes);
}

}  // namespace rockpoint::cli
