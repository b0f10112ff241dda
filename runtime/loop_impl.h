// Loop: the class behind RunLoop (loop.h), split over loop.cpp (the
// superstep cycle, running tasks), loop_start.cpp (input, Commands) and
// loop_resume.cpp (resuming at a stored checkpoint). What is stored, and
// when, is the Persistence's (persistence.h). Internal to runtime/.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/loop.h"
#include "runtime/loop_state.h"
#include "runtime/persistence.h"
#include "runtime/tasks.h"

namespace rockpoint::runtime {

// What the stored writes of one task at the restored checkpoint say.
struct StoredTask {
  std::string path;
  bool finished = false;      // it stored regular writes.
  Value::Array interrupts;    // its __interrupt__ records.
  std::vector<Value> resume;  // its __resume__ answers.
};

// Channel writes of Commands, by Command task id, in the order made.
using CommandWrites = std::vector<
    std::pair<std::string, std::vector<std::pair<std::string, Value>>>>;

class Loop {
 public:
  Loop(const GraphSpec& spec, const RunEnv& env, LoopRequest request);
  Awaitable<Result<RunOutcome>> Run();

 private:
  // loop_start.cpp
  Awaitable<Status> Start();
  Awaitable<Status> StartWithInput(const State& values);
  Status CollectCommandWrites(const Command& command,
                              std::vector<std::pair<std::string, Value>>& out);

  // loop_resume.cpp
  Awaitable<Status> Resume(const Command* command);
  // Stores the answers of `command` to the interrupts pending among
  // `tasks` (a subgraph's answers are kept for its task instead).
  Awaitable<Status> AnswerInterrupts(
      const Command& command, const std::map<std::string, StoredTask>& tasks);
  // Stores the channel writes of `command`, if any, and appends them to
  // `commands`.
  Awaitable<Status> StoreCommandWrites(const Command& command,
                                       CommandWrites& commands);
  Status ApplyCommandWrites(CommandWrites commands);

  // loop.cpp
  Value::Map RunMetadata() const;
  // Runs one superstep and makes its checkpoint. Sets `done` when no task
  // is left; appends to `interrupts` when tasks were interrupted (then no
  // checkpoint is made).
  Awaitable<Status> Superstep(std::vector<Interrupt>& interrupts, bool& done);
  Status PrepareOutcomes(const std::vector<Task>& tasks,
                         std::vector<TaskOutcome>& outcomes);
  // How the superstep's tasks ended: the first storage error, else an
  // Aborted naming the failed node (and counting the others), else OK.
  // Appends the interrupts raised to `interrupts`.
  Status StepStatus(const std::vector<Task>& tasks,
                    const std::vector<TaskOutcome>& outcomes,
                    std::vector<Interrupt>& interrupts) const;
  Status ApplyStep(const std::vector<Task>& tasks,
                   std::vector<TaskOutcome>& outcomes);
  Awaitable<void> RunStep(const std::vector<Task>& tasks,
                          std::vector<TaskOutcome>& outcomes);
  Awaitable<void> RunTask(const Task& task, std::shared_ptr<const State> input,
                          TaskOutcome& outcome);
  Awaitable<void> RunSubgraphTask(const Task& task, const State& input,
                                  TaskOutcome& outcome);
  RunOutcome Outcome(std::vector<Interrupt> interrupts) const;

  const GraphSpec& spec_;
  const RunEnv& env_;
  LoopRequest request_;
  LoopState state_;
  std::unique_ptr<Persistence> persistence_;  // on state_.
  // Resuming at a stored checkpoint (not a replay): until the first
  // superstep ends, tasks whose writes are stored are not rerun.
  bool resuming_ = false;
  int64_t supersteps_ = 0;
  // Answers for NodeContext::Interrupt, by task id.
  std::map<std::string, std::vector<Value>> resume_;
  // Answers to forward to subgraph tasks, by task id then interrupt id.
  std::map<std::string, std::map<std::string, Value>> child_resume_;
};

}  // namespace rockpoint::runtime
