// The CLI is a table of commands: each command is one
// class with a name, a one-line help, its flags, the access it needs to the
// store, and Run. main.cpp builds the argument parser from the table
// (command_table.cpp), opens the store with the command's access, runs it,
// renders its output and commits the store (Store::Commit).
//
// Exit status: 0 success; 1 error (one line on stderr); 2 `verify` found
// the store unsound. --help (stdout) and --version exit 0.
//
// Thread-safety: commands run on the main thread, one per process.
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/json_text.h"
#include "formats/printable.h"
#include "rockpoint/status.h"
#include "rockpoint/version.h"
#include "tools/cli/render.h"
#include "tools/cli/store.h"
#include "tools/cli/value_json.h"

namespace rockpoint::cli {

inline const std::string kVersionLine = std::string("rockpoint ") + kVersion;
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUnsound = 2;

// Options every command accepts (before or after the command name).
struct GlobalOptions {
  std::string store;    // --store PATH, or env ROCKPOINT_STORE.
  std::string backend;  // --backend; "" = detect.
  bool json = false;    // --json
  bool jsonl = false;   // --jsonl
  bool raw = false;     // --raw: payloads as type + base64, never decoded.
  bool full = false;    // --full: never cut long table cells.
  bool escaped =
      false;  // --escaped: id arguments use formats::Printable's escapes.
  std::string key_file;  // --key-file: an encrypted store's key.
};

// The key of --key-file (64 hex digits), else of ROCKPOINT_AES_KEY when it
// is set, else nullopt (a plaintext store). InvalidArgument for an
// unreadable file or a malformed key (never echoing it).
Result<std::optional<EncryptionOptions>> StoreKey(const GlobalOptions& globals);

// What a running command sees.
struct Context {
  GlobalOptions globals;
  // The store's key (StoreKey), nullopt for a plaintext store.
  std::optional<EncryptionOptions> encryption;
  Store* store = nullptr;  // opened with the command's access (kNone: null).
  std::ostream* out = nullptr;
  std::ostream* err = nullptr;

  OutputFormat format() const {
    if (globals.json) return OutputFormat::kJson;
    if (globals.jsonl) return OutputFormat::kJsonl;
    return OutputFormat::kTable;
  }
  bool table() const { return format() == OutputFormat::kTable; }
  PayloadView payload_view() const {
    return globals.raw ? PayloadView::kRaw : PayloadView::kDecoded;
  }
  // A payload as a table cell (text) or as JSON, by the output format.
  formats::Json Payload(const TypedValue& payload) const {
    return table() ? formats::Json(PayloadToText(payload, payload_view()))
                   : PayloadToJson(payload, payload_view());
  }
  void Print(const Output& output) const {
    Render(output, format(), globals.full ? 0 : 72, *out);
  }
  // With --escaped, decodes id arguments in place (see Unescape).
  Status DecodeIds(std::initializer_list<std::string*> ids) const {
    if (!globals.escaped) return Status::OK();
    for (std::string* id : ids) {
      RP_ASSIGN_OR_RETURN(*id, formats::Unescape(*id));
    }
    return Status::OK();
  }
  Status DecodeIds(std::optional<std::string>& id) const {
    return id ? DecodeIds({&*id}) : Status::OK();
  }
  Status DecodeIds(std::vector<std::string>& ids) const {
    for (std::string& id : ids) RP_RETURN_IF_ERROR(DecodeIds({&id}));
    return Status::OK();
  }
};

class Command {
 public:
  virtual ~Command() = default;
  virtual const char* name() const = 0;
  virtual const char* help() const = 0;
  virtual Access access() const = 0;
  // Declares the command's positionals and flags, bound to its members.
  virtual void AddFlags(CLI::App& app) = 0;
  // Runs with context.store open. Returns the exit status, or an error.
  virtual Result<int> Run(Context& context) = 0;
};

// The command table, in the order `--help` lists it.
std::vector<std::unique_ptr<Command>> MakeCommands();

}  // namespace rockpoint::cli
