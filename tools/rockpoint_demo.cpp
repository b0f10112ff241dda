// rockpoint-demo: a small chat agent on an embedded RocksDB store.
//
// The graph: "agent" answers the latest user message and, when the user asks
// for a transfer, routes to "approval", which interrupts for a human's
// decision. Messages live in a delta channel (only each step's new messages
// are stored; a full snapshot every 3 updates). The demo runs three turns,
// stops at the approval interrupt, resumes it, forks the conversation from
// before the transfer and continues the fork differently, then closes the
// store, reopens it and prints the history read back from disk.
//
// Usage: rockpoint-demo [STORE_DIR]   (default: ./demo.rpdb, recreated)
#include <cstdio>
#include <filesystem>
#include <string>

#include "rockpoint/open.h"
#include "rockpoint/runtime/runtime.h"

namespace rp = rockpoint;
namespace rt = rockpoint::runtime;
using rp::serde::Value;

namespace {

constexpr const char* kThread = "demo-chat";

// The text of the latest message, or "".
std::string LastMessage(const rt::State& state) {
  auto messages = state.find("messages");
  if (messages == state.end() || !messages->second.is_array() ||
      messages->second.as_array().empty()) {
    return "";
  }
  const Value& last = messages->second.as_array().back();
  return last.is_string() ? last.as_string() : last.DebugString();
}

rt::NodeUpdate Agent(const rt::State& state, rt::NodeContext&) {
  const std::string asked = LastMessage(state);
  std::string reply = "assistant: you said '" + asked.substr(6) + "'";
  if (asked.find("transfer") != std::string::npos) {
    reply = "assistant: a transfer needs approval";
  }
  return rt::NodeUpdate().Write("messages", Value(reply)).Write("turns", 1);
}

rt::NodeUpdate Approval(const rt::State&, rt::NodeContext& ctx) {
  const Value approved = ctx.Interrupt(Value("approve the transfer?"));
  const bool yes = approved.is_bool() && approved.as_bool();
  return rt::NodeUpdate().Write(
      "messages",
      Value(yes ? "tool: transfer done" : "tool: transfer declined"));
}

rt::Route AfterAgent(const rt::State& state) {
  const auto messages = state.at("messages").as_array();
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    if (it->as_string().rfind("user: ", 0) == 0) {
      return it->as_string().find("transfer") != std::string::npos
                 ? rt::Route("approval")
                 : rt::Route(rt::kEnd);
    }
  }
  return rt::Route(rt::kEnd);
}

rt::StateGraph BuildGraph() {
  rt::StateGraph graph;
  graph.AddChannel("messages", rt::ChannelSpec::Delta(rt::AppendReducer(), 3))
      .AddChannel("turns", rt::ChannelSpec::Reducer(rt::AddReducer()))
      .AddNode("agent", Agent)
      .AddNode("approval", Approval)
      .AddEdge(rt::kStart, "agent")
      .AddConditionalEdges("agent", AfterAgent,
                           {"approval", std::string(rt::kEnd)})
      .AddEdge("approval", rt::kEnd);
  return graph;
}

// The last 8 characters of a checkpoint id (where ids of one run differ).
std::string Tail(const std::string& id) {
  return id.size() > 8 ? id.substr(id.size() - 8) : id;
}

int Fail(const rp::Status& status) {
  std::fprintf(stderr, "rockpoint-demo: %s\n", status.ToString().c_str());
  return 1;
}

rt::RunConfig Thread(std::optional<std::string> checkpoint_id = {}) {
  rt::RunConfig config;
  config.thread_id = kThread;
  config.checkpoint_id = std::move(checkpoint_id);
  config.durability = rt::Durability::kSync;
  return config;
}

void PrintOutcome(const char* what, const rt::RunOutcome& outcome) {
  std::printf("%s -> %s\n", what, LastMessage(outcome.values).c_str());
  for (const auto& interrupt : outcome.interrupts) {
    std::printf("  interrupted in '%s': %s\n", interrupt.node.c_str(),
                interrupt.value.DebugString().c_str());
  }
}

rp::Status Converse(rt::CompiledGraph& graph) {
  auto say = [&](const char* text) -> rp::Result<rt::RunOutcome> {
    auto outcome = graph.Invoke(
        {{"messages", Value(rp::serde::Value::Array{Value(text)})}}, Thread());
    if (outcome.ok()) PrintOutcome(text, *outcome);
    return outcome;
  };
  RP_ASSIGN_OR_RETURN(auto first, say("user: hello"));
  RP_ASSIGN_OR_RETURN(auto second, say("user: what can you do?"));
  const std::string before_transfer = *second.config.checkpoint_id;
  RP_ASSIGN_OR_RETURN(auto third, say("user: transfer 10 EUR to Bob"));
  if (third.interrupts.empty()) {
    return rp::Status::Aborted("the transfer did not ask for approval");
  }
  rt::Command approve;
  approve.resume = Value(true);
  RP_ASSIGN_OR_RETURN(auto resumed, graph.Resume(approve, Thread()));
  PrintOutcome("human: approve", resumed);

  // Time travel: fork from before the transfer and take another path.
  RP_ASSIGN_OR_RETURN(auto fork, graph.ForkState(Thread(before_transfer)));
  std::printf("\nforked %s from %s\n", fork.checkpoint_id->c_str(),
              before_transfer.c_str());
  RP_ASSIGN_OR_RETURN(auto other, say("user: never mind, just say bye"));
  (void)first;
  (void)other;
  return rp::Status::OK();
}

rp::Status PrintHistory(rt::CompiledGraph& graph) {
  RP_ASSIGN_OR_RETURN(auto history, graph.GetStateHistory(Thread()));
  std::printf("\nhistory of %s, newest first (%zu checkpoints):\n", kThread,
              history.size());
  for (const auto& snapshot : history) {
    const Value* step = snapshot.metadata.Find("step");
    const Value* source = snapshot.metadata.Find("source");
    std::string next;
    for (const auto& node : snapshot.next) {
      next += (next.empty() ? "" : " ") + node;
    }
    const auto messages = snapshot.values.find("messages");
    std::printf(
        "  ...%s  parent ...%s  step %-3s %-6s messages=%zu next=[%s]\n",
        Tail(*snapshot.config.checkpoint_id).c_str(),
        snapshot.parent_config
            ? Tail(*snapshot.parent_config->checkpoint_id).c_str()
            : "--------",
        step ? step->DebugString().c_str() : "-",
        source ? source->as_string().c_str() : "-",
        messages == snapshot.values.end() ? size_t{0}
                                          : messages->second.as_array().size(),
        next.c_str());
  }
  RP_ASSIGN_OR_RETURN(auto latest, graph.GetState(Thread()));
  std::printf("\nlatest conversation:\n");
  for (const auto& message : latest.values.at("messages").as_array()) {
    std::printf("  %s\n", message.as_string().c_str());
  }
  return rp::Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "demo.rpdb";
  std::filesystem::remove_all(path);
  // The store's URL: a RocksDB directory (rockpoint/open.h).
  const std::string url = "rocksdb:" + path;
  rt::StateGraph graph = BuildGraph();
  {
    auto store = rp::Open(url);
    if (!store.ok()) return Fail(store.status());
    auto compiled = graph.Compile({.checkpointer = store->get()});
    if (!compiled.ok()) return Fail(compiled.status());
    std::printf("store: %s\n\n", path.c_str());
    if (auto s = Converse(**compiled); !s.ok()) return Fail(s);
  }  // closed: what follows is read back from disk.
  auto store = rp::Open(url);
  if (!store.ok()) return Fail(store.status());
  auto compiled = graph.Compile({.checkpointer = store->get()});
  if (!compiled.ok()) return Fail(compiled.status());
  if (auto s = PrintHistory(**compiled); !s.ok()) return Fail(s);
  return 0;
}
