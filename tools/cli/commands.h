// Factories of the CLI's commands (one .cpp per command or small group),
// gathered into the table by command_table.cpp.
#pragma once

#include <memory>

#include "tools/cli/command.h"

namespace rockpoint::cli {

std::unique_ptr<Command> MakeThreadsCommand();     // cmd_threads.cpp
std::unique_ptr<Command> MakeHistoryCommand();     // cmd_history.cpp
std::unique_ptr<Command> MakeShowCommand();        // cmd_show.cpp
std::unique_ptr<Command> MakeWritesCommand();      // cmd_show.cpp
std::unique_ptr<Command> MakeDiffCommand();        // cmd_diff.cpp
std::unique_ptr<Command> MakeExportCommand();      // cmd_transfer.cpp
std::unique_ptr<Command> MakeImportCommand();      // cmd_import.cpp
std::unique_ptr<Command> MakeCopyCommand();        // cmd_modify.cpp
std::unique_ptr<Command> MakeDeleteCommand();      // cmd_modify.cpp
std::unique_ptr<Command> MakeDeleteRunsCommand();  // cmd_modify.cpp
std::unique_ptr<Command> MakePruneCommand();       // cmd_modify.cpp
std::unique_ptr<Command> MakeStatsCommand();       // cmd_stats.cpp
std::unique_ptr<Command> MakeVerifyCommand();      // cmd_verify.cpp
std::unique_ptr<Command> MakeCompactCommand();     // cmd_maintenance.cpp
std::unique_ptr<Command> MakeDumpCommand();        // cmd_maintenance.cpp
std::unique_ptr<Command> MakeKeygenCommand();      // cmd_keys.cpp
std::unique_ptr<Command> MakeRekeyCommand();       // cmd_keys.cpp
std::unique_ptr<Command> MakeStoreCommand();       // cmd_store.cpp

}  // namespace rockpoint::cli
