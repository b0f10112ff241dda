// Loop: the class behind RunLoop (loop.h), split over loop.cpp (the
// superstep cycle, storage) and loop_start.cpp (input, resume, Commands).
// Internal to runtime/.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/loop.h"
#include "runtime/loop_state.h"
#include "runtime/tasks.h"

namespace rockpoint::runtime {

class Loop {
 public:
  Loop(const GraphSpec& spec, const RunEnv& env, LoopRequest request);
  Awaitable<Result<RunOutcome>> Run();

 private:
  // loop_start.cpp
  Awaitable<Status> Start();
  Awaitable<Status> StartWithInput(const State& values);
  Awaitable<Status> Resume(const Command* command);
  Status CollectCommandWrites(const Command& command,
                              std::vector<std::pair<std::string, Value>>& out);

  // loop.cpp
  Value::Map RunMetadata() const;
  Durability durability() const { return env_.durability; }
  // Stores writes on the current checkpoint (per durability; not at all in
  // the first superstep of a replay, which must not touch history).
  Awaitable<Status> StoreWrites(std::string task_id, std::string path,
                                std::vector<ChannelWrite> writes);
  // Bookkeeping after a superstep's writes were handed to StoreWrites.
  void NoteStepWrites(const std::vector<Task>& tasks,
                      const std::vector<TaskOutcome>& outcomes);
  Awaitable<Status> SaveCheckpoint();
  Awaitable<Status> Finish();
  Status PrepareOutcomes(const std::vector<Task>& tasks,
                         std::vector<TaskOutcome>& outcomes);
  Awaitable<void> RunStep(const std::vector<Task>& tasks,
                          std::vector<TaskOutcome>& outcomes);
  Awaitable<void> RunTask(const Task& task, std::shared_ptr<const State> input,
                          TaskOutcome& outcome);
  Awaitable<void> RunSubgraphTask(const Task& task, const State& input,
                                  TaskOutcome& outcome);
  bool WritesSkipped() const { return replaying_ && first_step_; }

  struct BufferedWrites {
    std::string task_id;
    std::string path;
    std::vector<ChannelWrite> writes;
  };

  const GraphSpec& spec_;
  const RunEnv& env_;
  LoopRequest request_;
  LoopState state_;
  bool replaying_ = false;  // started from an explicit checkpoint id.
  bool resuming_ = false;   // first step may reuse stored task writes.
  bool first_step_ = true;
  int64_t supersteps_ = 0;
  // Answers for NodeContext::Interrupt, by task id.
  std::map<std::string, std::vector<Value>> resume_;
  // Answers to forward to subgraph tasks, by task id then interrupt id.
  std::map<std::string, std::map<std::string, Value>> child_resume_;
  // kExit: writes of the current checkpoint, stored when the run ends.
  std::vector<BufferedWrites> exit_writes_;
};

}  // namespace rockpoint::runtime
