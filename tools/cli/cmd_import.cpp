// `import FILE|-`: an export (FORMAT_JSONL.md) into the store, created if
// missing. The input may also be the journal of a JSONL store (its first
// line says so): it is opened read-only (no lock: a writer may hold it) and
// its export, spooled to a temporary file, is what is imported, so a journal
// and an export of the same content import alike. A checking pass
// (import_passes.h) reads everything before anything is written; the writing
// pass then goes thread by thread without a sync per call, and the store is
// synced once when it is closed (Access::kImport). Ctrl-C keeps the whole
// threads written so far and removes the partial one (exit 130); a failed,
// refused or dry-run import removes a store it created. stdin is spooled to a
// temporary file first, so `import -` has the same guarantees.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "formats/export_format.h"
#include "formats/json_text.h"
#include "formats/printable.h"
#include "rockpoint/open.h"
#include "tools/cli/commands.h"
#include "tools/cli/import_passes.h"
#include "tools/cli/progress.h"

namespace rockpoint::cli {
namespace {

// Whether `file` is a rockpoint journal (a store, which import reads through
// its backend) rather than an export.
bool IsJournal(const std::string& file) {
  const Result<StoreLocation> location = LocateStore(file);
  return location.ok() && location->exists &&
         location->backend == BackendKind::kJsonl;
}

namespace fs = std::filesystem;

constexpr int kExitInterrupted = 130;  // 128 + SIGINT, as shells report it.

volatile std::sig_atomic_t g_interrupted = 0;

void OnSigint(int) { g_interrupted = 1; }

// SIGINT sets a flag (polled between lines) while this object lives. No
// SA_RESTART, so a blocking read of stdin returns EINTR.
class SigintFlag {
 public:
  SigintFlag() {
    g_interrupted = 0;
    struct sigaction action {};
    action.sa_handler = OnSigint;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &previous_);
  }
  ~SigintFlag() { ::sigaction(SIGINT, &previous_, nullptr); }
  SigintFlag(const SigintFlag&) = delete;
  SigintFlag& operator=(const SigintFlag&) = delete;
  bool raised() const { return g_interrupted != 0; }

 private:
  struct sigaction previous_ {};
};

// A temporary file holding stdin or the export of a journal, removed when
// this object dies.
class Spool {
 public:
  ~Spool() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  const std::string& path() const { return path_; }

  // Copies stdin; Aborted if SIGINT arrives first.
  Status Fill(const SigintFlag& sigint) {
    RP_ASSIGN_OR_RETURN(const int fd, Create("stdin"));
    Status status = Copy(STDIN_FILENO, fd, sigint);
    ::close(fd);
    return status;
  }

  // Writes the export of the journal at `journal` (opened read-only).
  Status ExportJournal(const std::string& journal) {
    StoreOptions options;
    options.read_only = true;
    options.create_if_missing = false;
    RP_ASSIGN_OR_RETURN(std::unique_ptr<Checkpointer> source,
                        Open("jsonl:" + journal, options));
    RP_ASSIGN_OR_RETURN(const int fd, Create("the journal's export"));
    ::close(fd);
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    Progress progress("reading the journal");
    RP_RETURN_IF_ERROR(
        formats::ExportStore(*source, {}, out, progress.Fn()).status());
    out.close();
    if (!out) return Status::IOError("cannot write " + path_);
    return Status::OK();
  }

 private:
  // Creates the (empty) temporary file for `what`; the caller closes it.
  Result<int> Create(const std::string& what) {
    std::string pattern =
        (fs::temp_directory_path() / "rockpoint-import-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) {
      return Status::IOError("cannot create a temporary file for " + what +
                             ": " + std::string(std::strerror(errno)));
    }
    path_ = pattern;
    return fd;
  }

  static Status Copy(int from, int to, const SigintFlag& sigint) {
    char buffer[1 << 16];
    while (!sigint.raised()) {
      const ssize_t n = ::read(from, buffer, sizeof(buffer));
      if (n == 0) return Status::OK();
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::IOError("cannot read stdin: " +
                               std::string(std::strerror(errno)));
      }
      for (ssize_t written = 0; written < n;) {
        const ssize_t w = ::write(to, buffer + written, n - written);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) {
          return Status::IOError("cannot spool stdin: " +
                                 std::string(std::strerror(errno)));
        }
        written += w;
      }
    }
    return Status::Aborted("interrupted");
  }

  std::string path_;
};

// For tests: ROCKPOINT_TEST_SIGINT_AFTER_CHECKPOINTS=N raises SIGINT once
// the writing pass has read N checkpoints, so that Ctrl-C is exercised at
// a known point.
std::optional<uint64_t> TestSigintAfter() {
  const char* text = std::getenv("ROCKPOINT_TEST_SIGINT_AFTER_CHECKPOINTS");
  if (text == nullptr) return std::nullopt;
  return std::strtoull(text, nullptr, 10);
}

std::string Threads(uint64_t n) {
  return std::to_string(n) + (n == 1 ? " thread" : " threads");
}

class ImportCommand final : public Command {
 public:
  const char* name() const override { return "import"; }
  const char* help() const override {
    return "Read a JSONL export, or the journal of a .jsonl store (FILE or "
           "- for stdin), into the store (created if missing)";
  }
  Access access() const override { return Access::kImport; }
  void AddFlags(CLI::App& app) override {
    app.add_option("FILE", file_, "Export or journal file, or - for stdin")
        ->required()
        ->check(CLI::Validator(
            [](std::string& file) -> std::string {
              std::error_code error;
              if (file == "-" || fs::is_regular_file(file, error)) return "";
              return "import file not found: " + file;
            },
            "FILE"));
    app.add_flag("--dry-run", dry_run_,
                 "Check the input and the target, write nothing");
    auto* resume = app.add_flag(
        "--resume", resume_,
        "Skip threads the target already has identical to the input (an "
        "interrupted import); a thread that differs is an error");
    auto* replace = app.add_flag("--replace", replace_,
                                 "Replace threads the target already has");
    resume->excludes(replace);
  }

  Result<int> Run(Context& context) override {
    SigintFlag sigint;
    Result<int> result = Import(context, sigint);
    if (!result.ok()) context.store->Discard();  // removes only a new store.
    return result;
  }

 private:
  Result<int> Import(Context& context, const SigintFlag& sigint) {
    Spool spool;
    std::string file = file_;
    if (file == "-") {
      if (Status read = spool.Fill(sigint); !read.ok()) {
        return read.IsAborted() ? Interrupted(context, {}) : read;
      }
      file = spool.path();
    }
    Spool journal_export;
    if (IsJournal(file)) {
      RP_RETURN_IF_ERROR(journal_export.ExportJournal(file));
      file = journal_export.path();
    }
    formats::ImportOptions options;
    options.interrupted = [&sigint] { return sigint.raised(); };
    Checkpointer& target = context.store->checkpointer();
    Result<ImportPlan> plan = [&] {
      Progress progress("checking checkpoints");
      return CheckImport(file, target, Existing(), options, progress.Fn());
    }();
    if (!plan.ok()) {
      if (plan.status().IsAborted()) return Interrupted(context, {});
      return plan.status();
    }
    if (dry_run_) {
      context.store->Discard();  // nothing written; a new store goes away.
      return Report(context, *plan);
    }
    ImportDone done;
    Status written = Write(file, target, *plan, options, done);
    if (written.IsAborted()) return Interrupted(context, done);
    if (!written.ok()) {
      if (done.partial) (void)target.DeleteThread(*done.partial);
      return written;
    }
    return Report(context, *plan);
  }

  ExistingThread Existing() const {
    if (resume_) return ExistingThread::kResume;
    if (replace_) return ExistingThread::kReplace;
    return ExistingThread::kRefuse;
  }

  Status Write(const std::string& file, Checkpointer& target,
               const ImportPlan& plan, const formats::ImportOptions& options,
               ImportDone& done) {
    Progress progress("importing checkpoints");
    progress.SetTotal(plan.counts.checkpoints);
    const std::optional<uint64_t> sigint_after = TestSigintAfter();
    const formats::ProgressFn report = [&](uint64_t checkpoints) {
      progress.Update(checkpoints);
      if (sigint_after && checkpoints == *sigint_after) std::raise(SIGINT);
    };
    return WriteImport(file, target, plan, options, report, done);
  }

  // Ctrl-C: whole threads stay, the partial one goes; a store this import
  // created and wrote nothing whole into is removed.
  Result<int> Interrupted(Context& context, const ImportDone& done) {
    std::string message = "rockpoint: interrupted: ";
    if (done.partial) {
      Status removed =
          context.store->checkpointer().DeleteThread(*done.partial);
      if (!removed.ok()) return removed;
    }
    if (done.threads == 0) {
      if (context.store->created()) context.store->Discard();
      message += "nothing was imported";
    } else {
      message += "imported " + Threads(done.threads) + " (" +
                 std::to_string(done.checkpoints) + " checkpoints) whole";
    }
    if (done.partial) {
      message += "; removed the partly imported thread " +
                 formats::Printable(*done.partial);
    }
    if (done.threads > 0) {
      message += "; run the same import with --resume to continue";
    }
    *context.err << message << '\n';
    return kExitInterrupted;
  }

  Result<int> Report(Context& context, const ImportPlan& plan) {
    formats::Json doc = formats::Json::object();
    doc["checkpoints"] = plan.counts.checkpoints;
    doc["values"] = plan.counts.values;
    doc["writes"] = plan.counts.writes;
    doc["threads"] = plan.threads;
    doc["skipped_threads"] = plan.skip.size();
    doc["replaced_threads"] = plan.replace.size();
    doc["dry_run"] = dry_run_;
    context.Print(Output::Document(std::move(doc)));
    return kExitOk;
  }

  std::string file_;
  bool dry_run_ = false;
  bool resume_ = false;
  bool replace_ = false;
};

}  // namespace

std::unique_ptr<Command> MakeImportCommand() {
  return std::make_unique<ImportCommand>();
}

}  // namespace rockpoint::cli
