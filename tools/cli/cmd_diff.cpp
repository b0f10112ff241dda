// `diff THREAD A B`: which channels differ between two checkpoints of a
// thread, and how (added, removed, version changed: items appended or
// removed, keys added/removed/changed, or old -> new).
#include <set>

#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"

namespace rockpoint::cli {
namespace {

constexpr size_t kShortValue = 32;

std::string Short(const Value& value) {
  std::string text = value.DebugString();
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
        text += sign + Printable(key);
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

const TypedValue* ValueOf(const Checkpoint& checkpoint,
                          const std::string& channel) {
  auto found = checkpoint.channel_values.find(channel);
  return found == checkpoint.channel_values.end() ? nullptr : &found->second;
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
      const TypedValue* old_value = ValueOf(a.checkpoint, channel);
      const TypedValue* new_value = ValueOf(b.checkpoint, channel);
      Json row = Json::object();
      row["channel"] = TextToJson(channel);
      if (in_a && in_b && old_version->second == new_version->second) {
        if (!all_) continue;
        row["change"] = "unchanged";
        row["detail"] = "";
      } else if (!in_a) {
        row["change"] = "added";
        row["detail"] = new_value
                            ? PayloadToText(*new_value, context.payload_view())
                            : "no stored value";
      } else if (!in_b) {
        row["change"] = "removed";
        row["detail"] = "";
      } else {
        row["change"] = "changed";
        row["detail"] = DescribePayloads(old_value, new_value);
      }
      row["version_a"] = in_a ? VersionToJson(old_version->second) : Json();
      row["version_b"] = in_b ? VersionToJson(new_version->second) : Json();
      if (!context.table()) {
        row["value_a"] = old_value ? context.Payload(*old_value) : Json();
        row["value_b"] = new_value ? context.Payload(*new_value) : Json();
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
