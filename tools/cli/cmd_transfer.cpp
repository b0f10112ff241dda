// `export [THREAD...]` and `import FILE`: the JSONL format of
// FORMAT_JSONL.md, so that any store can be moved to any backend.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"
#include "tools/cli/progress.h"

namespace rockpoint::cli {
namespace {

Json CountsDocument(const ExportCounts& counts) {
  Json doc = Json::object();
  doc["checkpoints"] = counts.checkpoints;
  doc["values"] = counts.values;
  doc["writes"] = counts.writes;
  return doc;
}

class ExportCommand final : public Command {
 public:
  const char* name() const override { return "export"; }
  const char* help() const override {
    return "Write threads (default: all) as JSONL to stdout or --output";
  }
  Access access() const override { return Access::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_option("THREAD", threads_, "Threads to export (default: all)");
    app.add_option("-o,--output", output_,
                   "Write to this file (replaced only when complete)");
  }

  Result<int> Run(Context& context) override {
    RP_RETURN_IF_ERROR(context.DecodeIds(threads_));
    Progress progress("exporting checkpoints");
    if (output_.empty()) {
      RP_ASSIGN_OR_RETURN(ExportCounts counts,
                          ExportStore(context.store->checkpointer(), threads_,
                                      *context.out, progress.Fn()));
      (void)counts;
      return kExitOk;
    }
    const std::string temporary = output_ + ".partial";
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) return Status::IOError("cannot write " + temporary);
    auto counts = ExportStore(context.store->checkpointer(), threads_, file,
                              progress.Fn());
    file.close();
    std::error_code error;
    if (!counts.ok() || !file) {
      std::filesystem::remove(temporary, error);
      return counts.ok() ? Status::IOError("cannot write " + temporary)
                         : counts.status();
    }
    std::filesystem::rename(temporary, output_, error);
    if (error) {
      return Status::IOError("cannot write " + output_ + ": " +
                             error.message());
    }
    return kExitOk;
  }

 private:
  std::vector<std::string> threads_;
  std::string output_;
};

class ImportCommand final : public Command {
 public:
  const char* name() const override { return "import"; }
  const char* help() const override {
    return "Read a JSONL export (FILE or - for stdin) into the store "
           "(created if missing)";
  }
  Access access() const override { return Access::kCreate; }
  void AddFlags(CLI::App& app) override {
    app.add_option("FILE", file_, "Export file, or - for stdin")
        ->required()
        ->check(CLI::Validator(
            [](std::string& file) -> std::string {
              std::error_code error;
              if (file == "-" ||
                  std::filesystem::is_regular_file(file, error)) {
                return "";
              }
              return "import file not found: " + file;
            },
            "FILE"));
    app.add_flag("--dry-run", dry_run_,
                 "Check the input and the target, write nothing");
  }

  Result<int> Run(Context& context) override {
    Checkpointer& target = context.store->checkpointer();
    ImportOptions options;
    options.dry_run = true;
    ExportCounts counts;
    if (file_ == "-") {
      // One pass: a malformed line stops the import where it is.
      options.dry_run = dry_run_;
      Progress progress("importing checkpoints");
      RP_ASSIGN_OR_RETURN(
          counts, ImportStore(std::cin, target, options, progress.Fn()));
    } else {
      // A checking pass first, so that bad input writes nothing.
      RP_ASSIGN_OR_RETURN(counts, ImportFile(target, options, "checking"));
      if (!dry_run_) {
        options.dry_run = false;
        RP_ASSIGN_OR_RETURN(counts, ImportFile(target, options, "importing"));
      }
    }
    Json doc = CountsDocument(counts);
    doc["dry_run"] = dry_run_;
    context.Print(Output::Document(std::move(doc)));
    return kExitOk;
  }

 private:
  Result<ExportCounts> ImportFile(Checkpointer& target,
                                  const ImportOptions& options,
                                  const std::string& verb) {
    std::ifstream in(file_, std::ios::binary);
    if (!in) return Status::NotFound("cannot open import file: " + file_);
    Progress progress(verb + " checkpoints");
    return ImportStore(in, target, options, progress.Fn());
  }

  std::string file_;
  bool dry_run_ = false;
};

}  // namespace

std::unique_ptr<Command> MakeExportCommand() {
  return std::make_unique<ExportCommand>();
}
std::unique_ptr<Command> MakeImportCommand() {
  return std::make_unique<ImportCommand>();
}

}  // namespace rockpoint::cli
