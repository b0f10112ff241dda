// rockpoint: the command-line tool over a checkpoint store. Builds the
// parser from the command table, opens the store with the chosen command's
// access, runs it, and turns every failure into one line on stderr with
// exit status 1 (see command.h).
#include <exception>
#include <iostream>

#include "tools/cli/command.h"

namespace {

namespace cli = rockpoint::cli;

// One line: newlines in a message would break "one clear line".
std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

int Fail(const std::string& message) {
  std::cerr << "rockpoint: error: " << OneLine(message) << '\n';
  return cli::kExitError;
}

// Adds the options every command accepts.
void AddGlobalOptions(CLI::App& app, cli::GlobalOptions& globals) {
  app.add_option("--store", globals.store,
                 "Store: a RocksDB directory, a SQLite file, a .jsonl "
                 "journal or a PostgreSQL URL (postgresql://...)")
      ->envname("ROCKPOINT_STORE");
  app.add_option("--backend", globals.backend,
                 "Force the backend (rocksdb, sqlite, jsonl or postgres) "
                 "instead of detecting it");
  auto* json = app.add_flag("--json", globals.json, "Output one JSON document");
  auto* jsonl =
      app.add_flag("--jsonl", globals.jsonl, "Output one JSON object per line");
  json->excludes(jsonl);
  app.add_flag("--raw", globals.raw,
               "Show stored payloads as type + base64, undecoded");
  app.add_flag("--full", globals.full, "Never shorten long table cells");
  app.add_option("--key-file", globals.key_file,
                 "File holding an encrypted store's key (64 hex digits); "
                 "else env ROCKPOINT_AES_KEY");
  app.add_flag("--escaped", globals.escaped,
               "Id arguments (threads, checkpoints, runs, --ns) use the "
               "escapes tables print: \\xNN, \\\\, \\n, \\t; \"\" is empty");
}

// The first argument that is neither an option nor a global option's value:
// the command name, if any.
std::optional<std::string> CommandWord(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--store" || arg == "--backend" || arg == "--key-file") {
      ++i;
    } else if (!arg.starts_with("-")) {
      return std::string(arg);
    }
  }
  return std::nullopt;
}

int RunCommand(cli::Command& command, cli::GlobalOptions globals) {
  std::optional<cli::Backend> forced;
  if (!globals.backend.empty()) {
    auto backend = cli::ParseBackend(globals.backend);
    if (!backend.ok()) return Fail(backend.status().message());
    forced = *backend;
  }
  auto key = cli::StoreKey(globals);
  if (!key.ok()) return Fail(key.status().ToString());
  std::unique_ptr<cli::Store> store;
  if (command.access() != cli::Access::kNone) {
    auto opened =
        cli::Store::Open(globals.store, forced, command.access(), *key);
    if (!opened.ok()) return Fail(opened.status().ToString());
    store = std::move(opened).value();
  }
  cli::Context context;
  context.globals = std::move(globals);
  context.encryption = std::move(key).value();
  context.store = store.get();
  context.out = &std::cout;
  context.err = &std::cerr;
  auto result = command.Run(context);
  std::cout.flush();
  if (!result.ok()) return Fail(result.status().ToString());
  if (store != nullptr && command.access() != cli::Access::kRead) {
    rockpoint::Status committed = store->Commit();
    if (!committed.ok()) return Fail(committed.ToString());
  }
  if (!std::cout) return Fail("cannot write to stdout");
  return *result;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    CLI::App app{
        "rockpoint: inspect, move and maintain rockpoint checkpoint "
        "stores (RocksDB, SQLite or a .jsonl journal).",
        "rockpoint"};
    app.set_version_flag("--version", cli::kVersionLine);
    app.require_subcommand(1);
    app.fallthrough();
    app.footer(
        "Global options (before or after the command): --store PATH (or env "
        "ROCKPOINT_STORE), --backend rocksdb|sqlite|jsonl|postgres, --json | "
        "--jsonl, "
        "--raw, --full, --key-file FILE (or env ROCKPOINT_AES_KEY).\nExit "
        "status: 0 ok, 1 error (one line on stderr), 2 "
        "verify found problems.\nRun `rockpoint COMMAND --help` for a "
        "command's options.");
    cli::GlobalOptions globals;
    AddGlobalOptions(app, globals);

    std::vector<std::unique_ptr<cli::Command>> commands = cli::MakeCommands();
    std::vector<std::pair<CLI::App*, cli::Command*>> parsers;
    for (auto& command : commands) {
      CLI::App* sub = app.add_subcommand(command->name(), command->help());
      sub->fallthrough();
      command->AddFlags(*sub);
      parsers.emplace_back(sub, command.get());
    }
    const auto known = [&](const std::string& word) {
      for (const auto& [sub, command] : parsers) {
        if (word == command->name()) return true;
      }
      return false;
    };
    if (auto word = CommandWord(argc, argv); word && !known(*word)) {
      return Fail("unknown command \"" + *word +
                  "\" (run `rockpoint --help` for the list)");
    }
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
      if (error.get_exit_code() == 0) return app.exit(error);  // help, version
      return Fail(std::string(error.what()) +
                  " (run `rockpoint --help` or `rockpoint COMMAND --help`)");
    }
    for (auto& [sub, command] : parsers) {
      if (sub->parsed()) return RunCommand(*command, globals);
    }
    return Fail("no command given");
  } catch (const std::exception& error) {
    return Fail(std::string("internal error: ") + error.what());
  }
}
