// The lines shared by the CLI's export format (tools/cli/FORMAT_JSONL.md)
// and the JSONL backend's journal (engine/jsonl/FORMAT.md): a stored value,
// a checkpoint, a pending write, each one JSON object. The journal dialect
// adds two members the export never carries: a value line may be the
// "empty" marker of a version bump, and a checkpoint line names the
// channels its put stored ("stored"), so a journal replays into exactly
// the state that wrote it; and it writes stored bytes in a readable form
// where one gives them back exactly (payload_json.h).
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "formats/json_text.h"
#include "formats/value_json.h"
#include "rockpoint/status.h"
#include "rockpoint/types.h"

namespace rockpoint::formats {

enum class Dialect { kExport, kJournal };

struct ValueLine {
  std::string thread, ns, channel;
  ChannelVersion version;
  // Journal only: the version was bumped with no value ("empty": true, no
  // type or b64).
  bool empty = false;
  TypedValue value;  // meaningless when empty.
};
struct CheckpointLine {
  std::string thread, ns;
  bool hidden = false;  // kept only for a survivor's delta history.
  std::optional<std::string> parent_id;
  Checkpoint checkpoint;  // channel_values unused (values are ValueLines).
  Metadata metadata;
  // Journal only (and always there): the channels the put stored a value
  // for, the seeds of the delta walk.
  std::optional<std::set<std::string>> stored;
};
struct WriteLine {
  std::string thread, ns, checkpoint_id;
  PendingWrite write;
};

// A value's and a write's bytes are base64 in the export, the most
// readable exact form in the journal (payload_json.h).
Json ValueLineToJson(const ValueLine& line, Dialect dialect);
Json CheckpointLineToJson(const CheckpointLine& line);
Json WriteLineToJson(const WriteLine& line, Dialect dialect);

// InvalidArgument naming the field on anything outside `dialect`.
Result<ValueLine> ValueLineFromJson(const Json& json, Dialect dialect);
Result<CheckpointLine> CheckpointLineFromJson(const Json& json,
                                              Dialect dialect);
Result<WriteLine> WriteLineFromJson(const Json& json, Dialect dialect);

// InvalidArgument "<field>: <what>".
Status BadField(std::string_view field, std::string_view what);

// Reads the members of one line object, rejecting missing and unknown ones.
// Errors name the member as "<kind>.<name>".
class LineFields {
 public:
  LineFields(const Json& json, std::string_view kind)
      : json_(json), kind_(kind) {}

  Result<const Json*> Required(const char* name);
  const Json* Optional(const char* name);
  Result<std::string> Text(const char* name);
  Result<int64_t> Int(const char* name);
  Result<std::string> Base64(const char* name);
  // Call last: a member not read (other than "kind") is an error.
  Status NoOthers() const;
  std::string Path(std::string_view name) const {
    return kind_ + "." + std::string(name);
  }

 private:
  const Json& json_;
  std::string kind_;
  std::set<std::string, std::less<>> seen_;
};

}  // namespace rockpoint::formats
