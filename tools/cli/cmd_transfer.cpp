// `export [THREAD...]`: the JSONL format of FORMAT_JSONL.md, so that any
// store can be moved to any backend (`import`: cmd_import.cpp).
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "base/durable_file.h"
#include "formats/export_format.h"
#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"
#include "tools/cli/progress.h"

namespace rockpoint::cli {
namespace {

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
      RP_ASSIGN_OR_RETURN(
          formats::ExportCounts counts,
          formats::ExportStore(context.store->checkpointer(), threads_,
                               *context.out, progress.Fn()));
      (void)counts;
      return kExitOk;
    }
    const std::string temporary = output_ + ".partial";
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) {
      return Status::IOError("cannot write " + temporary + ": " +
                             std::strerror(errno));
    }
    auto counts = formats::ExportStore(context.store->checkpointer(), threads_,
                                       file, progress.Fn());
    file.close();
    std::error_code error;
    if (!counts.ok() || !file) {
      std::filesystem::remove(temporary, error);
      return counts.ok() ? Status::IOError("cannot write " + temporary)
                         : counts.status();
    }
    // The data is on disk before the rename makes it the output, and the
    // rename is on disk (the directory synced) before export reports done.
    if (Status synced = SyncPath(temporary); !synced.ok()) {
      std::filesystem::remove(temporary, error);
      return synced;
    }
    std::filesystem::rename(temporary, output_, error);
    if (error) {
      return Status::IOError("cannot write " + output_ + ": " +
                             error.message());
    }
    RP_RETURN_IF_ERROR(SyncParentDirectory(output_));
    return kExitOk;
  }

 private:
  std::vector<std::string> threads_;
  std::string output_;
};

}  // namespace

std::unique_ptr<Command> MakeExportCommand() {
  return std::make_unique<ExportCommand>();
}

}  // namespace rockpoint::cli
