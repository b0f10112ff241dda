// What prune, delete_for_runs and expire share (pg_retention.cpp): one
// (thread, ns) read for retention, the delta-safety walk over it, and the
// statements that leave it holding its survivors.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/delta_retention.h"
#include "engine/postgres/postgres_impl.h"

namespace rockpoint {

// (channel, checkpoint_blobs.version) of a value.
using ValueKey = std::pair<std::string, std::string>;

// What retention reads of one (thread, ns).
struct Namespace {
  // Every checkpoint, hidden ones included, by id.
  std::map<std::string, PgHeader> nodes;
  // The pairs that hold a value: a checkpoint_blobs row other than
  // LangGraph's "empty" marker, or a value LangGraph inlined in a
  // checkpoint that names the pair.
  std::set<ValueKey> values;
  // The channels each checkpoint's pending writes write to, by checkpoint
  // id.
  WrittenChannels written;
};
// By checkpoint_ns.
using ThreadNamespaces = std::map<std::string, Namespace>;

// Every checkpoint of `thread` (only those of `namespaces` when given), and
// the pairs holding a value and the channels written in the namespaces
// that have checkpoints.
// Corruption naming the row when a checkpoint does not decode.
Result<ThreadNamespaces> ReadNamespaces(
    PostgresCheckpointer& backend, pg::Connection& connection,
    const std::string& thread, const std::set<std::string>* namespaces);

// The ancestors the survivors' (visible, not doomed) delta histories run
// through.
std::set<std::string> NeededAncestors(const Namespace& ns,
                                      const std::set<std::string>& doomed);

// What retaining `doomed` out of `ns` does to checkpoints that do not
// survive (survivors: visible, not doomed), where the survivors' delta
// histories read `needed` (NeededAncestors(ns, doomed)): needed visible
// ones are hidden, needed hidden ones stay as they are, the others are
// removed.
struct RetainedSplit {
  std::set<std::string> hide;
  std::set<std::string> remove;
};
RetainedSplit SplitRetained(const Namespace& ns,
                            const std::set<std::string>& doomed,
                            const std::set<std::string>& needed);

// The statements that leave (thread, ns) holding its survivors and what
// their delta histories need: a needed checkpoint that is not a survivor
// stays hidden (with its values and writes), every other checkpoint that is
// not a survivor goes with its writes and side row, and so do the values no
// remaining checkpoint of the namespace names. `needed` is
// NeededAncestors(nodes, doomed).
std::vector<pg::Query> RetainQueries(PostgresCheckpointer& backend,
                                     const std::string& thread,
                                     const std::string& ns,
                                     const Namespace& nodes,
                                     const std::set<std::string>& doomed,
                                     const std::set<std::string>& needed);

}  // namespace rockpoint
