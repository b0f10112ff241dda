#include "rockpoint/runtime/channels.h"

#include <exception>
#include <string>
#include <utility>

#include "formats/stored_forms.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint::runtime {

ChannelSpec ChannelSpec::LastValue(std::optional<Value> initial) {
  ChannelSpec spec;
  spec.kind = ChannelKind::kLastValue;
  spec.initial = std::move(initial);
  return spec;
}

ChannelSpec ChannelSpec::Reducer(BinaryReducer reducer,
                                 std::optional<Value> initial) {
  ChannelSpec spec;
  spec.kind = ChannelKind::kReducer;
  spec.reducer = std::move(reducer);
  spec.initial = std::move(initial);
  return spec;
}

ChannelSpec ChannelSpec::Delta(BinaryReducer reducer,
                               int64_t snapshot_frequency,
                               std::optional<Value> initial) {
  ChannelSpec spec = Delta(std::move(reducer), SnapshotPolicy::Frequency(),
                           std::move(initial));
  spec.snapshot_frequency = snapshot_frequency;
  return spec;
}

ChannelSpec ChannelSpec::Delta(BinaryReducer reducer, SnapshotPolicy policy,
                               std::optional<Value> initial) {
  ChannelSpec spec;
  spec.kind = ChannelKind::kDelta;
  spec.reducer = std::move(reducer);
  spec.snapshot_policy = policy;
  spec.initial = std::move(initial);
  return spec;
}

namespace {

// AppendReducer's fold, in place: costs the size of `write`, not of
// `current`.
void AppendInPlace(Value& current, const Value& write) {
  if (!current.is_array()) {
    Value::Array list;
    if (!current.is_null()) list.push_back(std::move(current));
    current = Value(std::move(list));
  }
  Value::Array& list = current.as_array();
  if (write.is_array()) {
    list.insert(list.end(), write.as_array().begin(), write.as_array().end());
  } else {
    list.push_back(write);
  }
}

// The function object AppendReducer() holds; ChannelState::Update
// recognizes it and appends in place instead of copying the value per
// write (a replayed delta history would otherwise cost O(writes x size)).
struct AppendFold {
  Value operator()(const Value& current, const Value& write) const {
    Value out = current;
    AppendInPlace(out, write);
    return out;
  }
};

}  // namespace

BinaryReducer AppendReducer() { return AppendFold{}; }

BinaryReducer AddReducer() {
  return [](const Value& current, const Value& write) {
    if (current.is_double() || write.is_double()) {
      auto as_double = [](const Value& v) {
        return v.is_double() ? v.as_double()
               : v.is_int()  ? static_cast<double>(v.as_int())
                             : 0.0;
      };
      return Value(as_double(current) + as_double(write));
    }
    int64_t a = current.is_int() ? current.as_int() : 0;
    int64_t b = write.is_int() ? write.as_int() : 0;
    return Value(a + b);
  };
}

Value MakeOverwrite(const Value& value) {
  return formats::WrapStoredForm(formats::StoredForm::kOverwrite, value);
}

bool IsOverwrite(const Value& value) {
  return formats::StoredFormOf(value) == formats::StoredForm::kOverwrite;
}

Value WrapSnapshot(const Value& value) {
  return formats::WrapStoredForm(formats::StoredForm::kDeltaSnapshot, value);
}

Result<Value> UnwrapStoredValue(const Value& stored) {
  if (formats::StoredFormOf(stored) != formats::StoredForm::kDeltaSnapshot) {
    return stored;
  }
  return formats::UnwrapStoredForm(stored);
}

TypedValue EncodeTyped(const Value& value) {
  return TypedValue{std::string(serde::kMsgpackType),
                    serde::EncodeMsgpack(value)};
}

Result<Value> DecodeTyped(const TypedValue& typed, std::string_view what) {
  if (typed.type != serde::kMsgpackType) {
    return Status::InvalidArgument(std::string(what) +
                                   " has serializer type '" + typed.type +
                                   "'; the runtime reads only 'msgpack'");
  }
  Result<Value> value = serde::DecodeMsgpack(typed.bytes);
  if (!value.ok()) {
    return Status::Corruption(std::string(what) + ": " +
                              value.status().message());
  }
  return value;
}

ChannelState::ChannelState(const ChannelSpec* spec)
    : spec_(spec), value_(spec->initial) {}

namespace {

// The value an Overwrite write carries (a plain write is its own value).
Result<Value> Unwrapped(std::string_view name, const Value& write) {
  if (!IsOverwrite(write)) return write;
  Result<Value> inner = serde::DecodeMsgpack(write.as_ext().data);
  if (!inner.ok()) {
    return Status::Corruption("overwrite of channel '" + std::string(name) +
                              "': " + inner.status().message());
  }
  return inner;
}

}  // namespace

Result<bool> ChannelState::Update(std::string_view name,
                                  const std::vector<Value>& writes) {
  if (writes.empty()) return false;
  switch (spec_->kind) {
    case ChannelKind::kLastValue:
      if (writes.size() > 1) {
        return Status::InvalidArgument(
            "channel '" + std::string(name) + "' keeps one value but got " +
            std::to_string(writes.size()) +
            " writes in one step; give it a reducer");
      }
      {
        RP_ASSIGN_OR_RETURN(Value value, Unwrapped(name, writes.front()));
        value_ = std::move(value);
      }
      return true;
    case ChannelKind::kReducer:
    case ChannelKind::kDelta:
      for (const Value& write : writes) {
        if (IsOverwrite(write)) {
          RP_ASSIGN_OR_RETURN(Value value, Unwrapped(name, write));
          value_ = std::move(value);
          overwritten_ = true;
          continue;
        }
        if (!value_) {
          value_ = write;
          continue;
        }
        if (spec_->reducer.target<AppendFold>() != nullptr) {
          AppendInPlace(*value_, write);
          continue;
        }
        try {
          value_ = spec_->reducer(*value_, write);
        } catch (const std::exception& e) {
          return Status::InvalidArgument("reducer of channel '" +
                                         std::string(name) +
                                         "' threw: " + e.what());
        } catch (...) {
          return Status::InvalidArgument("reducer of channel '" +
                                         std::string(name) + "' threw");
        }
      }
      return true;
    case ChannelKind::kEphemeral:
      value_ = writes.back();
      return true;
    case ChannelKind::kTopic:
      value_ = Value(Value::Array(writes.begin(), writes.end()));
      return true;
  }
  return false;
}

bool ChannelState::ClearIfEphemeral() {
  if (spec_->kind != ChannelKind::kEphemeral &&
      spec_->kind != ChannelKind::kTopic) {
    return false;
  }
  if (!value_) return false;
  value_.reset();
  return true;
}

}  // namespace rockpoint::runtime
