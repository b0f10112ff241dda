// Shared command helpers (see command_util.h).
#include "tools/cli/command_util.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>

#include "formats/json_text.h"
#include "formats/printable.h"
#include "formats/value_json.h"

namespace rockpoint::cli {

Result<bool> Confirm(const std::string& question, bool yes) {
  if (yes) return true;
  if (::isatty(STDIN_FILENO) != 1) {
    return Status::InvalidArgument(
        "refusing to change the store without --yes (stdin is not a "
        "terminal)");
  }
  std::cerr << question << " [y/N] " << std::flush;
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  return answer == "y" || answer == "Y" || answer == "yes";
}

Result<Value> ParseFilter(const std::vector<std::string>& pairs) {
  Value filter = Value::MakeMap();
  for (const std::string& pair : pairs) {
    const size_t equals = pair.find('=');
    if (equals == std::string::npos || equals == 0) {
      return Status::InvalidArgument("--filter must be key=value, got \"" +
                                     pair + "\"");
    }
    const std::string key = pair.substr(0, equals);
    const std::string text = pair.substr(equals + 1);
    Value value(text);
    if (formats::Json::accept(text)) {
      if (Status nesting = formats::CheckJsonNesting(text); !nesting.ok()) {
        return Status::InvalidArgument("--filter " + key + ": " +
                                       nesting.message());
      }
      RP_ASSIGN_OR_RETURN(value,
                          formats::ValueFromJson(formats::Json::parse(text),
                                                 "--filter " + key));
    }
    filter.as_map().insert_or_assign(key, std::move(value));
  }
  return filter;
}

Result<CheckpointTuple> FindTuple(
    Checkpointer& store, const std::string& thread, const std::string& ns,
    const std::optional<std::string>& checkpoint_id) {
  const CheckpointConfig config{thread, ns, checkpoint_id};
  std::optional<CheckpointTuple> tuple;
  if (checkpoint_id) {
    ListOptions options;
    options.config = config;
    options.include_hidden = true;
    RP_ASSIGN_OR_RETURN(std::unique_ptr<TupleCursor> cursor,
                        store.List(options));
    RP_ASSIGN_OR_RETURN(tuple, cursor->Next());
  } else {
    RP_ASSIGN_OR_RETURN(tuple, store.GetTuple(config));
  }
  if (tuple) return std::move(*tuple);
  std::string where = "thread " + formats::Printable(thread);
  if (!ns.empty()) where += " namespace " + formats::Printable(ns);
  if (!checkpoint_id) return Status::NotFound("no checkpoint in " + where);
  return Status::NotFound("checkpoint " + formats::Printable(*checkpoint_id) +
                          " not found in " + where);
}

formats::Json WriteToRow(const PendingWrite& write, const Context& context) {
  formats::Json row = formats::Json::object();
  row["task_path"] = formats::TextToJson(write.task_path);
  row["task_id"] = formats::TextToJson(write.task_id);
  row["idx"] = write.idx;
  row["channel"] = formats::TextToJson(write.channel);
  row["value"] = context.Payload(write.value);
  return row;
}

formats::Json MetadataField(const Metadata& metadata, std::string_view key) {
  const Value* value = metadata.Find(key);
  return value ? formats::ValueToJson(*value) : formats::Json();
}

CLI::Validator CountValidator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::string range =
            "must be a whole number from 1 to " + std::to_string(kMaxCount);
        const bool digits = !text.empty() && text.size() <= 19 &&
                            std::all_of(text.begin(), text.end(), [](char c) {
                              return c >= '0' && c <= '9';
                            });
        if (!digits) return range + ", not " + text;
        const uint64_t value = std::stoull(text);
        if (value < 1 || value > kMaxCount) return range + ", not " + text;
        return "";
      },
      "COUNT");
}

}  // namespace rockpoint::cli
