// `store`: the item store's subcommands (store_subcommand.h), and the
// helpers they share.
#include <ctime>

#include "formats/printable.h"
#include "tools/cli/commands.h"
#include "tools/cli/store_subcommand.h"

namespace rockpoint::cli {
namespace {

class StoreCommand final : public Command {
 public:
  StoreCommand() {
    subcommands_ = MakeStoreItemSubcommands();
    for (auto& sub : MakeStoreMaintenanceSubcommands()) {
      subcommands_.push_back(std::move(sub));
    }
  }
  const char* name() const override { return "store"; }
  const char* help() const override {
    return "The item store (long-term memory) in --store DIR: namespaces, "
           "get, search, put, delete, export, import, stats, verify, sweep";
  }
  Access access() const override { return Access::kNone; }
  void AddFlags(CLI::App& app) override {
    app.require_subcommand(1);
    for (auto& sub : subcommands_) {
      CLI::App* parser = app.add_subcommand(sub->name(), sub->help());
      parser->fallthrough();
      sub->AddFlags(*parser);
      parsers_.emplace_back(parser, sub.get());
    }
  }
  Result<int> Run(Context& context) override {
    for (auto& [parser, sub] : parsers_) {
      if (!parser->parsed()) continue;
      if (sub->opens_store()) return sub->Run(nullptr, context);
      RP_ASSIGN_OR_RETURN(std::unique_ptr<rockpoint::Store> store,
                          OpenItemStore(context, sub->access()));
      RP_ASSIGN_OR_RETURN(int status, sub->Run(store.get(), context));
      RP_RETURN_IF_ERROR(store->Close());
      return status;
    }
    return Status::InvalidArgument("store needs a subcommand");
  }

 private:
  std::vector<std::unique_ptr<StoreSubcommand>> subcommands_;
  std::vector<std::pair<CLI::App*, StoreSubcommand*>> parsers_;
};

}  // namespace

Result<Namespace> ParseNamespaceArg(const std::string& text,
                                    const Context& context) {
  Namespace ns;
  if (text.empty()) return ns;
  size_t start = 0;
  for (;;) {
    const size_t dot = text.find('.', start);
    std::string label = text.substr(
        start, dot == std::string::npos ? std::string::npos : dot - start);
    RP_RETURN_IF_ERROR(context.DecodeIds({&label}));
    ns.push_back(std::move(label));
    if (dot == std::string::npos) return ns;
    start = dot + 1;
  }
}

formats::Json NamespaceToJson(const Namespace& ns) {
  std::string joined;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i > 0) joined += '.';
    joined += ns[i];
  }
  return formats::TextToJson(joined);
}

std::string FormatMicros(int64_t micros) {
  const std::time_t seconds =
      static_cast<std::time_t>(micros / 1000000 - (micros % 1000000 < 0));
  const int64_t fraction = ((micros % 1000000) + 1000000) % 1000000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  const size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(text + n, sizeof text - n, ".%06lldZ",
                static_cast<long long>(fraction));
  return text;
}

Result<std::unique_ptr<rockpoint::Store>> OpenItemStore(
    const Context& context, StoreAccess access, StoreOpenOptions options) {
  if (context.globals.store.empty()) {
    return Status::InvalidArgument(
        "no store given: pass --store DIR (or set ROCKPOINT_STORE)");
  }
  options.read_only = access == StoreAccess::kRead;
  options.create_if_missing = access == StoreAccess::kCreate;
  return OpenStore(context.globals.store, options);
}

std::unique_ptr<Command> MakeStoreCommand() {
  return std::make_unique<StoreCommand>();
}

}  // namespace rockpoint::cli
