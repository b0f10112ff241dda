// `rockpoint store ...`: the item store (rockpoint/store.h, docs/STORE.md),
// the RocksDB directory named by --store (its own, or a checkpoint
// store's). Each subcommand is one class
// with a name, a help line, its flags, the access it needs and Run, like
// the CLI's commands; cmd_store.cpp gathers them under `store`.
//
// Namespaces are written with their labels joined by '.' ("users.alice"):
// no label contains a '.'. With --escaped, labels and keys use the escapes
// tables print.
//
// Thread-safety: commands run on the main thread, one per process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "formats/json_text.h"
#include "rockpoint/store.h"
#include "tools/cli/command.h"

namespace rockpoint::cli {

enum class StoreAccess { kRead, kWrite, kCreate };

class StoreSubcommand {
 public:
  virtual ~StoreSubcommand() = default;
  virtual const char* name() const = 0;
  virtual const char* help() const = 0;
  virtual StoreAccess access() const = 0;
  virtual void AddFlags(CLI::App& app) = 0;
  // Opens the store itself when it needs options from its input (import);
  // nullptr: the caller opens it by access().
  virtual bool opens_store() const { return false; }
  // Runs with `store` open (null when opens_store()).
  virtual Result<int> Run(rockpoint::Store* store, Context& context) = 0;
};

// get, put, delete, search, namespaces (cmd_store_items.cpp).
std::vector<std::unique_ptr<StoreSubcommand>> MakeStoreItemSubcommands();
// stats, verify, sweep, export, import (cmd_store_maintenance.cpp).
std::vector<std::unique_ptr<StoreSubcommand>> MakeStoreMaintenanceSubcommands();

// "a.b.c" -> {"a", "b", "c"}; "" -> {} (with --escaped, each label
// unescaped).
Result<Namespace> ParseNamespaceArg(const std::string& text,
                                    const Context& context);
// The labels joined by '.', as a text field.
formats::Json NamespaceToJson(const Namespace& ns);
// Microseconds since the epoch as "2026-11-29T07:10:00.123456Z".
std::string FormatMicros(int64_t micros);
// Verify's report: its counts, "sound" and "problems" (one
// {"problem": line} each).
formats::Json StoreReportToJson(const StoreVerifyReport& report);
// Opens --store for `access`, with options.
Result<std::unique_ptr<rockpoint::Store>> OpenItemStore(
    const Context& context, StoreAccess access, StoreOpenOptions options = {});

}  // namespace rockpoint::cli
