// `show THREAD [CHECKPOINT]`: one checkpoint in full (config, metadata,
// channel values decoded, pending writes, parent); `writes THREAD
// CHECKPOINT`: its pending writes alone.
#include "formats/json_text.h"
#include "formats/value_json.h"
#include "tools/cli/channel_values.h"
#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"
#include "tools/cli/readable_values.h"

namespace rockpoint::cli {
namespace {

// One row per channel: its version, its value (decoded, a delta channel's
// rebuilt) and where the value comes from ("stored", see ChannelValue).
Result<formats::Json> ChannelRows(const CheckpointTuple& tuple,
                                  const Context& context) {
  RP_ASSIGN_OR_RETURN(auto values,
                      ResolveChannels(context.store->checkpointer(), tuple,
                                      context.payload_view()));
  formats::Json rows = formats::Json::array();
  for (const auto& [channel, version] : tuple.checkpoint.channel_versions) {
    const ChannelValue& value = values[channel];
    formats::Json row = formats::Json::object();
    row["channel"] = formats::TextToJson(channel);
    row["version"] = formats::VersionToJson(version);
    row["value"] =
        context.table()
            ? formats::Json(ChannelValueToText(value, context.payload_view()))
            : ChannelValueToJson(value, context.payload_view());
    row["stored"] =
        value.source.empty() ? formats::Json() : formats::Json(value.source);
    rows.push_back(std::move(row));
  }
  return rows;
}

formats::Json VersionsSeenRows(const Checkpoint& checkpoint) {
  formats::Json rows = formats::Json::array();
  for (const auto& [node, versions] : checkpoint.versions_seen) {
    for (const auto& [channel, version] : versions) {
      formats::Json row = formats::Json::object();
      row["node"] = formats::TextToJson(node);
      row["channel"] = formats::TextToJson(channel);
      row["version"] = formats::VersionToJson(version);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

Result<formats::Json> TupleDocument(const CheckpointTuple& tuple,
                                    const Context& context) {
  const Checkpoint& checkpoint = tuple.checkpoint;
  formats::Json doc = formats::Json::object();
  doc["thread"] = formats::TextToJson(tuple.config.thread_id.value_or(""));
  doc["ns"] = formats::TextToJson(tuple.config.checkpoint_ns.value_or(""));
  doc["checkpoint_id"] = formats::TextToJson(checkpoint.id);
  // Only for a checkpoint kept for a delta history (prune, delete-runs).
  if (tuple.hidden) doc["hidden"] = true;
  doc["parent_checkpoint_id"] =
      tuple.parent_config && tuple.parent_config->checkpoint_id
          ? formats::TextToJson(*tuple.parent_config->checkpoint_id)
          : formats::Json();
  doc["ts"] = formats::TextToJson(checkpoint.ts);
  doc["v"] = checkpoint.v;
  doc["metadata"] = context.table()
                        ? formats::Json(ReadableText(tuple.metadata))
                        : ReadableJson(tuple.metadata);
  if (checkpoint.updated_channels) {
    formats::Json updated = formats::Json::array();
    for (const std::string& channel : *checkpoint.updated_channels) {
      updated.push_back(formats::TextToJson(channel));
    }
    doc["updated_channels"] = std::move(updated);
  }
  RP_ASSIGN_OR_RETURN(doc["channels"], ChannelRows(tuple, context));
  doc["versions_seen"] = VersionsSeenRows(checkpoint);
  formats::Json writes = formats::Json::array();
  for (const PendingWrite& write : tuple.pending_writes) {
    writes.push_back(WriteToRow(write, context));
  }
  doc["pending_writes"] = std::move(writes);
  if (checkpoint.pending_sends) {
    formats::Json sends = formats::Json::array();
    for (const TypedValue& send : *checkpoint.pending_sends) {
      formats::Json row = formats::Json::object();
      row["value"] = context.Payload(send);
      sends.push_back(std::move(row));
    }
    doc["pending_sends"] = std::move(sends);
  }
  return doc;
}

class ShowCommand final : public Command {
 public:
  const char* name() const override { return "show"; }
  const char* help() const override {
    return "Show a checkpoint (the latest by default): config, metadata, "
           "channel values, pending writes, parent";
  }
  Access access() const override { return Access::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_option("THREAD", thread_, "Thread id")->required();
    app.add_option("CHECKPOINT", latest_or_id_,
                   "Checkpoint id (default: the latest)");
    app.add_option("--ns", ns_, "Namespace (default: \"\", the root graph)");
  }

  Result<int> Run(Context& context) override {
    RP_RETURN_IF_ERROR(context.DecodeIds({&thread_, &ns_}));
    RP_RETURN_IF_ERROR(context.DecodeIds(latest_or_id_));
    RP_ASSIGN_OR_RETURN(
        CheckpointTuple tuple,
        FindTuple(context.store->checkpointer(), thread_, ns_, latest_or_id_));
    RP_ASSIGN_OR_RETURN(formats::Json doc, TupleDocument(tuple, context));
    context.Print(Output::Document(std::move(doc)));
    return kExitOk;
  }

 private:
  std::string thread_;
  std::optional<std::string> latest_or_id_;
  std::string ns_;
};

class WritesCommand final : public Command {
 public:
  const char* name() const override { return "writes"; }
  const char* help() const override {
    return "List the pending writes of a checkpoint";
  }
  Access access() const override { return Access::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_option("THREAD", thread_, "Thread id")->required();
    app.add_option("CHECKPOINT", checkpoint_id_, "Checkpoint id")->required();
    app.add_option("--ns", ns_, "Namespace (default: \"\", the root graph)");
  }

  Result<int> Run(Context& context) override {
    RP_RETURN_IF_ERROR(context.DecodeIds({&thread_, &ns_, &checkpoint_id_}));
    RP_ASSIGN_OR_RETURN(
        CheckpointTuple tuple,
        FindTuple(context.store->checkpointer(), thread_, ns_, checkpoint_id_));
    Output output = Output::Rows({{"task_path", "TASK PATH"},
                                  {"task_id", "TASK"},
                                  {"idx", "IDX"},
                                  {"channel", "CHANNEL"},
                                  {"value", "VALUE"}});
    for (const PendingWrite& write : tuple.pending_writes) {
      output.rows.push_back(WriteToRow(write, context));
    }
    context.Print(output);
    return kExitOk;
  }

 private:
  std::string thread_;
  std::string checkpoint_id_;
  std::string ns_;
};

}  // namespace

std::unique_ptr<Command> MakeShowCommand() {
  return std::make_unique<ShowCommand>();
}
std::unique_ptr<Command> MakeWritesCommand() {
  return std::make_unique<WritesCommand>();
}

}  // namespace rockpoint::cli
