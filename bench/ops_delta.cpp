// get_delta_channel_history against the naive walk (RunDeltaSection).
#include "bench/conversation.h"
#include "bench/operations.h"
#include "bench/workload.h"

namespace rockpoint::bench {
namespace {

constexpr const char* kMessages = "messages";

// The history the way a store without get_delta_channel_history would get
// it: get_tuple on the target, then get_tuple on each parent in turn,
// collecting the writes to `messages` until an ancestor stores its value.
// Returns the number of writes collected.
Result<size_t> NaiveWalk(Checkpointer& store, const std::string& thread) {
  RP_ASSIGN_OR_RETURN(std::optional<CheckpointTuple> tuple,
                      store.GetTuple(CheckpointConfig{thread, "", {}}));
  if (!tuple) return Status::Corruption("bench: naive walk: no target");
  size_t writes = 0;
  std::optional<CheckpointConfig> parent = tuple->parent_config;
  while (parent) {
    RP_ASSIGN_OR_RETURN(std::optional<CheckpointTuple> ancestor,
                        store.GetTuple(*parent));
    if (!ancestor) break;
    for (const PendingWrite& write : ancestor->pending_writes) {
      if (write.channel == kMessages) ++writes;
    }
    if (ancestor->checkpoint.channel_values.contains(kMessages)) break;
    parent = ancestor->parent_config;
  }
  return writes;
}

Status ExpectWrites(size_t got, size_t expected, std::string_view who) {
  if (got == expected) return Status::OK();
  return Status::Corruption("bench: " + std::string(who) + " returned " +
                            std::to_string(got) + " writes, expected " +
                            std::to_string(expected));
}

}  // namespace

std::string DeltaVariant(size_t chain, size_t message_bytes) {
  return std::to_string(chain) + " ancestors; " + FormatBytes(message_bytes) +
         " writes";
}

Status RunDeltaSection(BenchContext& ctx) {
  // One store set, one thread per chain, all written (and settled) first.
  RP_ASSIGN_OR_RETURN(auto stores,
                      OpenStores(ctx.scratch, "delta", false, false));
  for (const size_t chain : ctx.options.chains) {
    ConversationSpec spec;
    spec.thread = "chain-" + std::to_string(chain);
    spec.turns = chain;
    spec.message_bytes = ctx.options.message_bytes;
    spec.mode = Persistence::kDelta;
    spec.snapshot_every = 0;  // the seed is the root: `chain` ancestors.
    for (const char* subject : stores->Subjects()) {
      RP_RETURN_IF_ERROR(WriteConversation(stores->Of(subject), spec, nullptr));
    }
  }
  RP_RETURN_IF_ERROR(stores->Settle());
  for (const size_t chain : ctx.options.chains) {
    const std::string thread = "chain-" + std::to_string(chain);
    const std::string variant = DeltaVariant(chain, ctx.options.message_bytes);

    auto history_on = [&](Checkpointer& store) -> TimedOp {
      return [&store, &thread, chain](int, size_t, Lap&) -> Status {
        RP_ASSIGN_OR_RETURN(DeltaHistory history,
                            store.GetDeltaChannelHistory(
                                CheckpointConfig{thread, "", {}}, {kMessages}));
        const DeltaChannelHistory& messages = history[kMessages];
        if (!messages.seed) return Status::Corruption("bench: no seed");
        return ExpectWrites(messages.writes.size(), chain, "delta history");
      };
    };
    std::vector<SubjectOp> subjects;
    for (SubjectOp& subject : OnEachStore(*stores, history_on)) {
      if (subject.subject == std::string_view(kPostgres)) {
        Lap untimed;
        if (Status probe = subject.op(0, 0, untimed); !probe.ok()) {
          ctx.not_done.push_back("postgres delta history, " + variant + ": " +
                                 probe.ToString());
          continue;
        }
      }
      subjects.push_back(std::move(subject));
    }
    Checkpointer& rockpoint = *stores->rockpoint;
    auto naive = [&rockpoint, &thread, chain](int, size_t, Lap&) -> Status {
      RP_ASSIGN_OR_RETURN(size_t writes, NaiveWalk(rockpoint, thread));
      return ExpectWrites(writes, chain, "naive walk");
    };
    subjects.push_back({kNaiveWalk, naive});
    // The naive walk costs ~chain get_tuples per call: fewer calls.
    const size_t ops =
        chain >= 1000 ? ctx.options.slow_ops
                      : std::max(ctx.options.slow_ops, ctx.options.ops / 10);
    RP_RETURN_IF_ERROR(
        ctx.Compare("delta history", variant, ctx.Plan(1, ops), subjects));
  }
  return Status::OK();
}

}  // namespace rockpoint::bench
