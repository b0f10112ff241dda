// `diff THREAD A B`: which channels differ between two checkpoints of a
// thread, and how (added, removed, version changed: items appended or
// removed, keys added/removed/changed, or old -> new). Values are compared
// as channel_values.h resolves them: runtime snapshots unwrapped, delta
// channels rebuilt; a delta channel that cannot be rebuilt (unknown
// reducer) is described by the writes between A and B.
#include <set>

#include "formats/json_text.h"
#include "formats/printable.h"
#include "formats/value_json.h"
#include "tools/cli/channel_values.h"
#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"
#include "tools/cli/readable_values.h"

namespace rockpoint::cli {
namespace {

constexpr size_t kShortValue = 32;

std::string Short(const Value& value) {
  std::string text = ReadableText(value);
  if (text.size() > kShortValue) text = text.substr(0, kShortValue - 3) + "...";
  return text;
}

std::string Plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// How value `a` became `b`, for two decodable values.
std::string DescribeChange(const Value& a, const Value& b) {
  if (a == b) return "same value";
  if (a.is_array() && b.is_array()) {
    const auto& old_items = a.as_array();
    const auto& new_items = b.as_array();
    const size_t common = std::min(old_items.size(), new_items.size());
    const bool prefix = std::equal(
        old_items.begin(), old_items.begin() + common, new_items.begin());
    if (prefix && new_items.size() > old_items.size()) {
      return "appended " + Plural(new_items.size() - old_items.size(), "item");
    }
    if (prefix) {
      return "removed last " +
             Plural(old_items.size() - new_items.size(), "item");
    }
    return "array of " + std::to_string(old_items.size()) + " -> " +
           std::to_string(new_items.size()) + " items, contents changed";
  }
  if (a.is_map() && b.is_map()) {
    std::vector<std::string> added, removed, changed;
    for (const auto& [key, value] : b.as_map()) {
      const Value* old_value = a.Find(key);
      if (old_value == nullptr) {
        added.push_back(key);
      } else if (!(*old_value == value)) {
        changed.push_back(key);
      }
    }
    for (const auto& [key, value] : a.as_map()) {
      if (b.Find(key) == nullptr) removed.push_back(key);
    }
    std::string text;
    const auto list = [&](const char* sign,
                          const std::vector<std::string>& keys) {
      for (const std::string& key : keys) {
        if (!text.empty()) text += " ";
        text += sign + formats::Printable(key);
      }
    };
    list("+", added);
    list("-", removed);
    list("~", changed);
    return "keys " + text;
  }
  return Short(a) + " -> " + Short(b);
}

std::string DescribePayloads(const TypedValue* a, const TypedValue* b) {
  if (a == nullptr && b == nullptr) return "version bump, no stored value";
  if (a == nullptr) return "value set";
  if (b == nullptr) return "value no longer stored";
  if (*a == *b) return "same value";
  auto old_value = DecodePayload(*a);
  auto new_value = DecodePayload(*b);
  if (old_value && new_value) return DescribeChange(*old_value, *new_value);
  return "bytes changed (" + std::to_string(a->bytes.size()) + " -> " +
         std::to_string(b->bytes.size()) + ")";
}

// What a channel that B adds holds.
std::string AddedDetail(const ChannelValue& value, PayloadView view) {
  if (value.value || value.stored) return ChannelValueToText(value, view);
  return value.source.empty() ? "no stored value" : value.source;
}

// Checkpoints walked from B towards A before giving up.
constexpr size_t kMaxAncestorWalk = 100000;

// The writes to `channel` stored on A and on every ancestor of B below A:
// the writes that took the channel from A's value to B's. nullopt when A
// is not an ancestor of B.
Result<std::optional<size_t>> WritesSince(Checkpointer& store,
                                          const CheckpointTuple& a,
                                          const CheckpointTuple& b,
                                          const std::string& channel) {
  const std::string thread = b.config.thread_id.value_or("");
  const std::string ns = b.config.checkpoint_ns.value_or("");
  std::optional<std::string> next =
      b.parent_config ? b.parent_config->checkpoint_id : std::nullopt;
  size_t writes = 0;
  for (size_t walked = 0; next && walked < kMaxAncestorWalk; ++walked) {
    RP_ASSIGN_OR_RETURN(CheckpointTuple tuple,
                        FindTuple(store, thread, ns, next));
    for (const PendingWrite& write : tuple.pending_writes) {
      writes += write.channel == channel;
    }
    if (tuple.checkpoint.id == a.checkpoint.id) {
      return std::optional<size_t>(writes);
    }
    next =
        tuple.parent_config ? tuple.parent_config->checkpoint_id : std::nullopt;
  }
  return std::optional<size_t>();
}

// How a changed channel went from A to B.
Result<std::string> DescribeChannel(Checkpointer& store,
                                    const CheckpointTuple& a,
                                    const CheckpointTuple& b,
                                    const std::string& channel,
                                    const ChannelValue& old_value,
                                    const ChannelValue& new_value) {
  if (old_value.value && new_value.value) {
    return DescribeChange(*old_value.value, *new_value.value);
  }
  if (!old_value.delta_writes && !new_value.delta_writes) {
    return DescribePayloads(old_value.stored ? &*old_value.stored : nullptr,
                            new_value.stored ? &*new_value.stored : nullptr);
  }
  // A delta channel whose reducer the CLI does not know.
  RP_ASSIGN_OR_RETURN(std::optional<size_t> writes,
                      WritesSince(store, a, b, channel));
  if (!writes) return std::string("changed (A is not an ancestor of B)");
  return Plural(*writes, "write") + " since A (unknown reducer)";
}

class DiffCommand final : public Command {
 public:
  const char* name() const override { return "diff"; }
  const char* help() const override {
    return "Show which channels changed between checkpoints A and B, and how";
  }
  Access access() const override { return Access::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_option("THREAD", thread_, "Thread id")->required();
    app.add_option("A", a_, "Older checkpoint id")->required();
    app.add_option("B", b_, "Newer checkpoint id")->required();
    app.add_option("--ns", ns_, "Namespace (default: \"\", the root graph)");
    app.add_flag("--all", all_, "Also list unchanged channels");
  }

  Result<int> Run(Context& context) override {
    RP_RETURN_IF_ERROR(context.DecodeIds({&thread_, &a_, &b_, &ns_}));
    Checkpointer& store = context.store->checkpointer();
    RP_ASSIGN_OR_RETURN(CheckpointTuple a, FindTuple(store, thread_, ns_, a_));
    RP_ASSIGN_OR_RETURN(CheckpointTuple b, FindTuple(store, thread_, ns_, b_));
    const PayloadView view = context.payload_view();
    RP_ASSIGN_OR_RETURN(auto old_values, ResolveChannels(store, a, view));
    RP_ASSIGN_OR_RETURN(auto new_values, ResolveChannels(store, b, view));
    const ChannelVersions& old_versions = a.checkpoint.channel_versions;
    const ChannelVersions& new_versions = b.checkpoint.channel_versions;
    std::set<std::string> channels;
    for (const auto& [channel, unused] : old_versions) channels.insert(channel);
    for (const auto& [channel, unused] : new_versions) channels.insert(channel);

    Output output = Output::Rows({{"channel", "CHANNEL"},
                                  {"change", "CHANGE"},
                                  {"version_a", "VERSION A"},
                                  {"version_b", "VERSION B"},
                                  {"detail", "DETAIL"}});
    for (const std::string& channel : channels) {
      auto old_version = old_versions.find(channel);
      auto new_version = new_versions.find(channel);
      const bool in_a = old_version != old_versions.end();
      const bool in_b = new_version != new_versions.end();
      const ChannelValue& old_value = old_values[channel];
      const ChannelValue& new_value = new_values[channel];
      formats::Json row = formats::Json::object();
      row["channel"] = formats::TextToJson(channel);
      if (in_a && in_b && old_version->second == new_version->second) {
        if (!all_) continue;
        row["change"] = "unchanged";
        row["detail"] = "";
      } else if (!in_a) {
        row["change"] = "added";
        row["detail"] = AddedDetail(new_value, view);
      } else if (!in_b) {
        row["change"] = "removed";
        row["detail"] = "";
      } else {
        row["change"] = "changed";
        RP_ASSIGN_OR_RETURN(
            row["detail"],
            DescribeChannel(store, a, b, channel, old_value, new_value));
      }
      row["version_a"] =
          in_a ? formats::VersionToJson(old_version->second) : formats::Json();
      row["version_b"] =
          in_b ? formats::VersionToJson(new_version->second) : formats::Json();
      if (!context.table()) {
        row["value_a"] = ChannelValueToJson(old_value, view);
        row["value_b"] = ChannelValueToJson(new_value, view);
      }
      output.rows.push_back(std::move(row));
    }
    context.Print(output);
    return kExitOk;
  }

 private:
  std::string thread_;
  std::string a_;
  std::string b_;
  std::string ns_;
  bool all_ = false;
};

}  // namespace

std::unique_ptr<Command> MakeDiffCommand() {
  return std::make_unique<DiffCommand>();
}

}  // namespace rockpoint::cli
