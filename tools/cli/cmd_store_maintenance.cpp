// The item store's maintenance subcommands:
//
//   rockpoint store stats                 counts and bytes on disk
//   rockpoint store verify                every record and index checked
//                                         (exit 2 when unsound)
//   rockpoint store sweep                 delete expired items now
//   rockpoint store export [--out FILE]   JSON lines (formats/store_export.h)
//   rockpoint store import FILE|-         what export wrote, times and
//                                         vectors included
//
// export -> import -> export is byte-identical.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "formats/store_export.h"
#include "tools/cli/store_subcommand.h"

namespace rockpoint::cli {
namespace {

// Items an import writes per atomic write.
constexpr size_t kImportChunk = 1000;

uint64_t DirectoryBytes(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  uint64_t total = 0;
  if (!fs::is_directory(path, error)) return 0;
  for (const auto& entry : fs::recursive_directory_iterator(path, error)) {
    if (entry.is_regular_file(error)) total += entry.file_size(error);
  }
  return total;
}

class StatsSubcommand final : public StoreSubcommand {
 public:
  const char* name() const override { return "stats"; }
  const char* help() const override {
    return "Items, namespaces, vectors, expired items, bytes on disk";
  }
  StoreAccess access() const override { return StoreAccess::kRead; }
  void AddFlags(CLI::App&) override {}
  Result<int> Run(rockpoint::Store* store, Context& context) override {
    RP_ASSIGN_OR_RETURN(StoreVerifyReport report, store->Verify());
    formats::Json doc = StoreReportToJson(report);
    doc.erase("sound");
    doc.erase("problems");
    doc["bytes_on_disk"] = DirectoryBytes(context.globals.store);
    context.Print(Output::Document(std::move(doc)));
    return kExitOk;
  }
};

class VerifySubcommand final : public StoreSubcommand {
 public:
  const char* name() const override { return "verify"; }
  const char* help() const override {
    return "Read every record and check the namespace counts, the expiry "
           "index and the vectors against the items (exit 2 if unsound)";
  }
  StoreAccess access() const override { return StoreAccess::kRead; }
  void AddFlags(CLI::App&) override {}
  Result<int> Run(rockpoint::Store* store, Context& context) override {
    RP_ASSIGN_OR_RETURN(StoreVerifyReport report, store->Verify());
    context.Print(Output::Document(StoreReportToJson(report)));
    return report.problems.empty() ? kExitOk : kExitUnsound;
  }
};

class SweepSubcommand final : public StoreSubcommand {
 public:
  const char* name() const override { return "sweep"; }
  const char* help() const override {
    return "Delete every item whose TTL has run out";
  }
  StoreAccess access() const override { return StoreAccess::kWrite; }
  void AddFlags(CLI::App&) override {}
  Result<int> Run(rockpoint::Store* store, Context& context) override {
    RP_ASSIGN_OR_RETURN(uint64_t swept, store->SweepExpired());
    formats::Json doc = formats::Json::object();
    doc["swept"] = swept;
    context.Print(Output::Document(std::move(doc)));
    return kExitOk;
  }
};

class ExportSubcommand final : public StoreSubcommand {
 public:
  const char* name() const override { return "export"; }
  const char* help() const override {
    return "Write every item (times, expiry and vectors included) as JSON "
           "lines, to stdout or --out FILE";
  }
  StoreAccess access() const override { return StoreAccess::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_option("--out", out_path_, "Write to FILE instead of stdout");
  }
  Result<int> Run(rockpoint::Store* store, Context& context) override {
    std::ofstream file;
    std::ostream* out = context.out;
    if (!out_path_.empty()) {
      file.open(out_path_, std::ios::binary | std::ios::trunc);
      if (!file) return Status::IOError("cannot write " + out_path_);
      out = &file;
    }
    *out << formats::StoreExportHeader().dump() << '\n';
    RP_RETURN_IF_ERROR(store->ExportItems([&](const StoredItem& item) {
      *out << formats::StoredItemToJson(item).dump() << '\n';
      return *out ? Status::OK() : Status::IOError("export write failed");
    }));
    out->flush();
    if (!*out) return Status::IOError("export write failed");
    return kExitOk;
  }

 private:
  std::string out_path_;
};

class ImportSubcommand final : public StoreSubcommand {
 public:
  const char* name() const override { return "import"; }
  const char* help() const override {
    return "Read what `store export` wrote (FILE, or - for stdin) into the "
           "store, creating it if missing";
  }
  StoreAccess access() const override { return StoreAccess::kCreate; }
  bool opens_store() const override { return true; }
  void AddFlags(CLI::App& app) override {
    app.add_option("file", in_path_, "The export (- for stdin)")->required();
  }
  Result<int> Run(rockpoint::Store*, Context& context) override {
    std::ifstream file;
    std::istream* in = &std::cin;
    if (in_path_ != "-") {
      file.open(in_path_, std::ios::binary);
      if (!file) return Status::InvalidArgument("cannot read " + in_path_);
      in = &file;
    }
    RP_ASSIGN_OR_RETURN(std::vector<StoredItem> items, ReadExport(*in));
    // The vectors' length gives the index the store needs.
    StoreOpenOptions options;
    for (const StoredItem& item : items) {
      if (item.vectors.empty()) continue;
      options.index = StoreIndexOptions{};
      options.index->dims = item.vectors.front().vector.size();
      break;
    }
    RP_ASSIGN_OR_RETURN(std::unique_ptr<rockpoint::Store> store,
                        OpenItemStore(context, StoreAccess::kCreate, options));
    for (size_t start = 0; start < items.size(); start += kImportChunk) {
      const size_t end = std::min(items.size(), start + kImportChunk);
      RP_RETURN_IF_ERROR(store->ImportItems(
          std::vector<StoredItem>(items.begin() + start, items.begin() + end)));
    }
    RP_RETURN_IF_ERROR(store->Close());
    formats::Json doc = formats::Json::object();
    doc["imported"] = items.size();
    context.Print(Output::Document(std::move(doc)));
    return kExitOk;
  }

 private:
  // Every item of an export; InvalidArgument naming the line of the first
  // bad one.
  static Result<std::vector<StoredItem>> ReadExport(std::istream& in) {
    std::vector<StoredItem> items;
    std::string line;
    size_t number = 0;
    while (std::getline(in, line)) {
      ++number;
      const std::string where = "line " + std::to_string(number) + ": ";
      if (Status nesting = formats::CheckJsonNesting(line); !nesting.ok()) {
        return Status::InvalidArgument(where + nesting.message());
      }
      if (!formats::Json::accept(line)) {
        return Status::InvalidArgument(where + "not valid JSON");
      }
      const formats::Json json = formats::Json::parse(line);
      if (number == 1) {
        Status header = formats::CheckStoreExportHeader(json);
        if (!header.ok())
          return Status::InvalidArgument(where + header.message());
        continue;
      }
      auto item = formats::StoredItemFromJson(json);
      if (!item.ok()) {
        return Status::InvalidArgument(where + item.status().message());
      }
      items.push_back(std::move(item).value());
    }
    if (number == 0) return Status::InvalidArgument("the export is empty");
    return items;
  }

  std::string in_path_;
};

}  // namespace

formats::Json StoreReportToJson(const StoreVerifyReport& report) {
  formats::Json doc = formats::Json::object();
  doc["items"] = report.items;
  doc["namespaces"] = report.namespaces;
  doc["vectors"] = report.vectors;
  doc["expiry_entries"] = report.expiry_entries;
  doc["recent_entries"] = report.recent_entries;
  doc["expired_items"] = report.expired_items;
  doc["sound"] = report.problems.empty();
  formats::Json problems = formats::Json::array();
  for (const std::string& problem : report.problems) {
    formats::Json row = formats::Json::object();
    row["problem"] = problem;
    problems.push_back(std::move(row));
  }
  doc["problems"] = std::move(problems);
  return doc;
}

std::vector<std::unique_ptr<StoreSubcommand>>
MakeStoreMaintenanceSubcommands() {
  std::vector<std::unique_ptr<StoreSubcommand>> out;
  out.push_back(std::make_unique<ExportSubcommand>());
  out.push_back(std::make_unique<ImportSubcommand>());
  out.push_back(std::make_unique<StatsSubcommand>());
  out.push_back(std::make_unique<VerifySubcommand>());
  out.push_back(std::make_unique<SweepSubcommand>());
  return out;
}

}  // namespace rockpoint::cli
