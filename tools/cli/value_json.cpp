// Payload rendering (see value_json.h).
#include "tools/cli/value_json.h"

#include "formats/json_text.h"
#include "formats/printable.h"
#include "formats/value_json.h"
#include "rockpoint/msgpack_codec.h"
#include "tools/cli/readable_values.h"
#include "tools/cli/runtime_forms.h"

namespace rockpoint::cli {
namespace {

// A "json" payload that parses within kMaxJsonDepth.
bool IsRenderableJson(const TypedValue& payload) {
  return payload.type == "json" &&
         formats::JsonNestingDepth(payload.bytes) <= formats::kMaxJsonDepth &&
         formats::Json::accept(payload.bytes);
}

}  // namespace

std::optional<Value> DecodePayload(const TypedValue& payload) {
  if (payload.type != serde::kMsgpackType) return std::nullopt;
  auto value = serde::DecodeMsgpack(payload.bytes);
  if (!value.ok()) return std::nullopt;
  return std::move(value).value();
}

formats::Json PayloadToJson(const TypedValue& payload, PayloadView view) {
  formats::Json out = formats::Json::object();
  out["type"] = formats::TextToJson(payload.type);
  if (view == PayloadView::kDecoded) {
    if (auto value = DecodePayload(payload)) {
      Unwrapped unwrapped = UnwrapRuntimeForm(std::move(*value));
      out["value"] = ReadableJson(unwrapped.value);
      if (unwrapped.form != formats::StoredForm::kPlain) {
        out["form"] = formats::StoredFormName(unwrapped.form);
      }
      return out;
    }
    if (IsRenderableJson(payload)) {
      out["value"] = ReadableLangChainJson(formats::Json::parse(payload.bytes));
      return out;
    }
  }
  out["b64"] = formats::Base64Encode(payload.bytes);
  return out;
}

std::string PayloadToText(const TypedValue& payload, PayloadView view) {
  if (view == PayloadView::kDecoded) {
    if (auto value = DecodePayload(payload)) {
      Unwrapped unwrapped = UnwrapRuntimeForm(std::move(*value));
      const std::string form = formats::StoredFormName(unwrapped.form);
      return (form.empty() ? "" : form + ": ") + ReadableText(unwrapped.value);
    }
    if (IsRenderableJson(payload)) {
      return ReadableLangChainJson(formats::Json::parse(payload.bytes)).dump();
    }
  }
  return formats::Printable(payload.type) +
         " b64:" + formats::Base64Encode(payload.bytes);
}

}  // namespace rockpoint::cli
