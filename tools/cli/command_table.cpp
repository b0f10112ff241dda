// The command table: every command of `rockpoint`, in help order.
#include "tools/cli/commands.h"

namespace rockpoint::cli {

std::vector<std::unique_ptr<Command>> MakeCommands() {
  std::vector<std::unique_ptr<Command>> commands;
  // Inspection.
  commands.push_back(MakeThreadsCommand());
  commands.push_back(MakeHistoryCommand());
  commands.push_back(MakeShowCommand());
  commands.push_back(MakeWritesCommand());
  commands.push_back(MakeDiffCommand());
  // Moving data.
  commands.push_back(MakeExportCommand());
  commands.push_back(MakeImportCommand());
  commands.push_back(MakeCopyCommand());
  // Removing data.
  commands.push_back(MakeDeleteCommand());
  commands.push_back(MakeDeleteRunsCommand());
  commands.push_back(MakePruneCommand());
  // Maintenance.
  commands.push_back(MakeStatsCommand());
  commands.push_back(MakeVerifyCommand());
  commands.push_back(MakeCompactCommand());
  commands.push_back(MakeDumpCommand());
  // Encryption.
  commands.push_back(MakeKeygenCommand());
  commands.push_back(MakeRekeyCommand());
  // The item store (long-term memory).
  commands.push_back(MakeStoreCommand());
  return commands;
}

}  // namespace rockpoint::cli
