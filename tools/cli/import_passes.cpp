// CheckImport and WriteImport: the sinks behind `rockpoint import`.
#include "tools/cli/import_passes.h"

#include <fstream>
#include <memory>
#include <sstream>

#include "formats/printable.h"
#include "rockpoint/memory_checkpointer.h"

namespace rockpoint::cli {
namespace {

Result<bool> HasThread(Checkpointer& store, const std::string& thread) {
  ListOptions probe;
  probe.config = CheckpointConfig{thread, std::nullopt, std::nullopt};
  probe.limit = 1;
  probe.include_hidden = true;
  RP_ASSIGN_OR_RETURN(std::vector<CheckpointTuple> found, store.ListAll(probe));
  return !found.empty();
}

Result<std::string> ExportThread(Checkpointer& store,
                                 const std::string& thread) {
  std::ostringstream out;
  RP_ASSIGN_OR_RETURN(
      formats::ExportCounts counts,
      formats::ExportStore(store, {thread}, out, formats::ProgressFn()));
  (void)counts;
  return std::move(out).str();
}

// Stages each thread into a fresh memory store, then compares it with the
// target's.
class CheckSink final : public formats::ImportSink {
 public:
  CheckSink(Checkpointer& target, ExistingThread existing, ImportPlan& plan)
      : target_(target), existing_(existing), plan_(plan) {}

  Result<Checkpointer*> BeginThread(const std::string&) override {
    stage_ = std::make_unique<MemoryCheckpointer>();
    ++plan_.threads;
    return stage_.get();
  }

  Status EndThread(const std::string& thread) override {
    std::unique_ptr<MemoryCheckpointer> stage = std::move(stage_);
    RP_ASSIGN_OR_RETURN(bool exists, HasThread(target_, thread));
    if (!exists) return Status::OK();
    switch (existing_) {
      case ExistingThread::kRefuse:
        return Status::InvalidArgument(
            "thread " + formats::Printable(thread) +
            " already exists in the target store (--resume skips threads "
            "imported before, --replace replaces them, or delete it first)");
      case ExistingThread::kReplace:
        plan_.replace.insert(thread);
        return Status::OK();
      case ExistingThread::kResume:
        break;
    }
    RP_ASSIGN_OR_RETURN(std::string input, ExportThread(*stage, thread));
    RP_ASSIGN_OR_RETURN(std::string stored, ExportThread(target_, thread));
    if (input != stored) {
      return Status::InvalidArgument(
          "thread " + formats::Printable(thread) +
          " exists in the target store and differs from the input "
          "(--replace replaces it)");
    }
    plan_.skip.insert(thread);
    return Status::OK();
  }

 private:
  Checkpointer& target_;
  const ExistingThread existing_;
  ImportPlan& plan_;
  std::unique_ptr<MemoryCheckpointer> stage_;
};

// Writes each thread the plan does not skip; counts the whole ones.
class WriteSink final : public formats::ImportSink {
 public:
  WriteSink(Checkpointer& target, const ImportPlan& plan, ImportDone& done)
      : target_(target), plan_(plan), done_(done) {}

  // The importer's running checkpoint count (every line, skipped or not).
  void Seen(uint64_t checkpoints) { seen_ = checkpoints; }

  Result<Checkpointer*> BeginThread(const std::string& thread) override {
    if (plan_.skip.contains(thread)) return nullptr;
    if (plan_.replace.contains(thread)) {
      RP_RETURN_IF_ERROR(target_.DeleteThread(thread));
    }
    done_.partial = thread;
    started_at_ = seen_;
    return &target_;
  }

  Status EndThread(const std::string&) override {
    if (!done_.partial) return Status::OK();
    done_.partial.reset();
    ++done_.threads;
    done_.checkpoints += seen_ - started_at_;
    return Status::OK();
  }

 private:
  Checkpointer& target_;
  const ImportPlan& plan_;
  ImportDone& done_;
  uint64_t seen_ = 0;
  uint64_t started_at_ = 0;
};

Result<std::ifstream> OpenInput(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Status::NotFound("cannot open import file: " + file);
  return in;
}

}  // namespace

Result<ImportPlan> CheckImport(const std::string& file, Checkpointer& target,
                               ExistingThread existing,
                               const formats::ImportOptions& options,
                               const formats::ProgressFn& progress) {
  RP_ASSIGN_OR_RETURN(std::ifstream in, OpenInput(file));
  ImportPlan plan;
  CheckSink sink(target, existing, plan);
  RP_ASSIGN_OR_RETURN(plan.counts,
                      formats::ImportThreads(in, sink, options, progress));
  return plan;
}

Status WriteImport(const std::string& file, Checkpointer& target,
                   const ImportPlan& plan,
                   const formats::ImportOptions& options,
                   const formats::ProgressFn& progress, ImportDone& done) {
  RP_ASSIGN_OR_RETURN(std::ifstream in, OpenInput(file));
  WriteSink sink(target, plan, done);
  const formats::ProgressFn counted = [&](uint64_t checkpoints) {
    sink.Seen(checkpoints);
    if (progress) progress(checkpoints);
  };
  return formats::ImportThreads(in, sink, options, counted).status();
}

}  // namespace rockpoint::cli
