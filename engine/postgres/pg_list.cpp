// list as keyset pages newest first (one round trip per page: the page's
// checkpoints, values and writes in one pipeline), and list_threads.
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "engine/backend_rules.h"
#include "engine/postgres/postgres_impl.h"

namespace rockpoint {
namespace {

// Rows per page when no limit is smaller.
constexpr size_t kPageRows = 100;

// The columns list orders by, newest first: checkpoint_id, then thread_id
// and checkpoint_ns unless the options fix them (a fixed column left in
// would keep the planner from reading the order off an index).
std::vector<std::string> OrderColumns(const ListOptions& options) {
  std::vector<std::string> columns = {"checkpoint_id"};
  const bool thread = options.config && options.config->thread_id;
  const bool ns = options.config && options.config->checkpoint_ns;
  if (!thread) columns.emplace_back("thread_id");
  if (!ns) columns.emplace_back("checkpoint_ns");
  return columns;
}

// "t.a COLLATE "C" DESC, t.b COLLATE "C" DESC" for `table` t.
std::string OrderBy(const std::vector<std::string>& columns,
                    std::string_view table) {
  std::string out;
  for (const std::string& column : columns) {
    if (!out.empty()) out += ", ";
    out += std::string(table) + "." + column + " COLLATE \"C\" DESC";
  }
  return out;
}

// The value of `column` in `config`.
std::string ColumnOf(const CheckpointConfig& config, std::string_view column) {
  if (column == "thread_id") return config.thread_id.value_or("");
  if (column == "checkpoint_ns") return config.checkpoint_ns.value_or("");
  return config.checkpoint_id.value_or("");
}

// Whether `options` can match anything stored: ids that no TEXT column can
// hold match nothing.
bool CanMatch(const ListOptions& options, size_t max_bytes) {
  if (!options.config) return true;
  const CheckpointConfig& config = *options.config;
  return (!config.thread_id ||
          pg::IsStorableText(*config.thread_id, max_bytes)) &&
         (!config.checkpoint_ns ||
          pg::IsStorableText(*config.checkpoint_ns, max_bytes)) &&
         (!config.checkpoint_id ||
          pg::IsStorableText(*config.checkpoint_id, max_bytes));
}

class PgListCursor final : public TupleCursor {
 public:
  PgListCursor(PostgresCheckpointer* backend, ListOptions options)
      : backend_(backend), options_(std::move(options)) {
    backend_->CursorOpened();
    const std::string filter = pg::MetadataToJson(options_.filter);
    // A filter that is one tag object has no containment form, and an
    // encrypted store's metadata is sealed: the engine filters alone then.
    if (backend_->cipher() == nullptr && !options_.filter.as_map().empty() &&
        !filter.starts_with("{\"" + std::string(pg::kTagKey) + "\"")) {
      filter_json_ = filter;
    }
    done_ = !CanMatch(options_, backend_->limits().max_id_bytes) ||
            (options_.limit && *options_.limit == 0);
  }
  ~PgListCursor() override { backend_->CursorClosed(); }

  Result<std::optional<CheckpointTuple>> Next() override {
    while (buffer_.empty() && !done_) {
      Status fetched = FetchPage();
      if (!fetched.ok()) {
        done_ = true;
        return fetched;
      }
    }
    if (buffer_.empty()) return std::optional<CheckpointTuple>();
    CheckpointTuple tuple = std::move(buffer_.front());
    buffer_.pop_front();
    ++returned_;
    if (options_.limit && returned_ >= *options_.limit) {
      done_ = true;
      buffer_.clear();
    }
    return std::optional<CheckpointTuple>(std::move(tuple));
  }

 private:
  Status FetchPage() {
    size_t rows = kPageRows;
    if (options_.limit) rows = std::min(rows, *options_.limit - returned_);
    std::string where = "true";
    std::string name = "rp_list_";
    pg::Params params;
    auto add = [&](std::string_view condition, pg::Param param, char bit) {
      params.push_back(std::move(param));
      std::string text(condition);
      text.replace(text.find('#'), 1, "$" + std::to_string(params.size()));
      where += " AND " + text;
      name += bit;
    };
    if (options_.config) {
      const CheckpointConfig& config = *options_.config;
      if (config.thread_id) {
        add("c.thread_id = #", pg::Text(*config.thread_id), 't');
      }
      if (config.checkpoint_ns) {
        add("c.checkpoint_ns = #", pg::Text(*config.checkpoint_ns), 'n');
      }
      if (config.checkpoint_id) {
        add("c.checkpoint_id = #", pg::Text(*config.checkpoint_id), 'i');
      }
    }
    if (options_.before && options_.before->checkpoint_id) {
      add("c.checkpoint_id COLLATE \"C\" < #",
          pg::Text(*options_.before->checkpoint_id), 'b');
    }
    if (filter_json_) {
      add("(c.metadata @> #::jsonb OR c.metadata ? '" +
              std::string(pg::kTagKey) + "')",
          pg::Text(*filter_json_), 'f');
    }
    if (!options_.include_hidden) {
      where += " AND r.hidden IS NOT TRUE";
      name += 'v';
    }
    const std::vector<std::string> order = OrderColumns(options_);
    if (resume_) {
      // Keyset: the rows after the last one read, in the order above.
      std::string left, right;
      for (const std::string& column : order) {
        params.push_back(pg::Text(ColumnOf(*resume_, column)));
        if (!left.empty()) left += ", ", right += ", ";
        left += "c." + column + " COLLATE \"C\"";
        right += "$" + std::to_string(params.size());
      }
      where += " AND (" + left + ") < (" + right + ")";
      name += 'r';
    }
    params.push_back(pg::Int(static_cast<int64_t>(rows)));
    const std::string cte = std::string("SELECT ") + kCteColumns + " FROM " +
                            kCheckpointFrom + " WHERE " + where + " ORDER BY " +
                            OrderBy(order, "c") + " LIMIT $" +
                            std::to_string(params.size());
    RP_ASSIGN_OR_RETURN(
        std::vector<CheckpointTuple> page,
        backend_->ReadTuples(name, cte, OrderBy(order, "cp"), params));
    if (page.size() < rows) done_ = true;
    if (!page.empty()) resume_ = page.back().config;
    for (CheckpointTuple& tuple : page) {
      if (!MetadataMatches(tuple.metadata, options_.filter)) continue;
      buffer_.push_back(std::move(tuple));
    }
    return Status::OK();
  }

  PostgresCheckpointer* const backend_;
  const ListOptions options_;
  std::optional<std::string> filter_json_;
  std::deque<CheckpointTuple> buffer_;
  std::optional<CheckpointConfig> resume_;
  size_t returned_ = 0;
  bool done_ = false;
};

// One page of threads (limit + 1 to learn whether more follow), each with
// its namespaces' visible counts and latest ids, and the latest's ts
// ({ts}: the checkpoint's ts, or in an encrypted store the whole checkpoint
// column, whose sealed record holds it).
constexpr const char* kListThreads = R"sql(
WITH v AS (
  SELECT c.thread_id, c.checkpoint_ns, c.checkpoint_id
    FROM {from}
   WHERE r.hidden IS NOT TRUE
     AND ($1::text IS NULL OR c.thread_id COLLATE "C" > $1::text)
), page AS (
  SELECT DISTINCT thread_id COLLATE "C" AS thread_id FROM v
   ORDER BY 1 LIMIT $2
), g AS (
  SELECT v.thread_id, v.checkpoint_ns, count(*)::int8 AS n,
         (array_agg(v.checkpoint_id
                    ORDER BY v.checkpoint_id COLLATE "C" DESC))[1] AS latest
    FROM v JOIN page ON page.thread_id = v.thread_id COLLATE "C"
   GROUP BY v.thread_id, v.checkpoint_ns
)
SELECT g.thread_id, g.checkpoint_ns, g.n, g.latest, {ts}
  FROM g JOIN checkpoints c ON c.thread_id = g.thread_id
   AND c.checkpoint_ns = g.checkpoint_ns AND c.checkpoint_id = g.latest
 ORDER BY g.thread_id COLLATE "C", g.checkpoint_ns COLLATE "C")sql";

}  // namespace

std::unique_ptr<TupleCursor> MakePostgresListCursor(
    PostgresCheckpointer* backend, ListOptions options) {
  return std::make_unique<PgListCursor>(backend, std::move(options));
}

Result<std::unique_ptr<TupleCursor>> PostgresCheckpointer::DoList(
    const ListOptions& options) {
  if (options.before && options.before->checkpoint_id) {
    RP_RETURN_IF_ERROR(pg::CheckStorableText("before.checkpoint_id",
                                             *options.before->checkpoint_id,
                                             std::string::npos));
  }
  return MakePostgresListCursor(this, options);
}

Result<std::string> PostgresCheckpointer::LatestTs(const pg::Rows& rows,
                                                   int row) const {
  if (!cipher_) return rows.GetString(row, 4);
  PgCheckpointRow latest;
  latest.thread_id = rows.GetString(row, 0);
  latest.checkpoint_ns = rows.GetString(row, 1);
  latest.checkpoint_id = rows.GetString(row, 3);
  latest.checkpoint_json = rows.GetString(row, 4);
  RP_RETURN_IF_ERROR(UnsealRow(latest));
  RP_ASSIGN_OR_RETURN(pg::StoredCheckpoint stored,
                      pg::CheckpointFromJson(latest.checkpoint_json,
                                             RowName(latest) + " checkpoint"));
  return std::move(stored.checkpoint.ts);
}

Result<ThreadPage> PostgresCheckpointer::DoListThreads(
    const ListThreadsOptions& options) {
  if (options.after) {
    RP_RETURN_IF_ERROR(
        pg::CheckStorableText("after", *options.after, std::string::npos));
  }
  ThreadPage page;
  std::string sql = ReplaceAll(kListThreads, "{from}", kCheckpointFrom);
  sql = ReplaceAll(std::move(sql), "{ts}",
                   cipher() ? "c.checkpoint::text" : "c.checkpoint ->> 'ts'");
  RP_ASSIGN_OR_RETURN(Lease lease, Acquire());
  RP_ASSIGN_OR_RETURN(pg::Rows rows,
                      lease->RunOne(pg::Query{
                          &Stmt("rp_list_threads", sql),
                          "",
                          {pg::OptionalText(options.after),
                           pg::Int(static_cast<int64_t>(options.limit) + 1)}}));
  for (int i = 0; i < rows.size(); ++i) {
    std::string thread_id = rows.GetString(i, 0);
    if (page.threads.empty() || page.threads.back().thread_id != thread_id) {
      if (page.threads.size() == options.limit) {
        page.next_after = page.threads.back().thread_id;
        break;
      }
      page.threads.push_back(ThreadInfo{std::move(thread_id), {}});
    }
    RP_ASSIGN_OR_RETURN(std::string ts, LatestTs(rows, i));
    page.threads.back().namespaces.push_back(NamespaceInfo{
        rows.GetString(i, 1), static_cast<uint64_t>(rows.GetInt(i, 2)),
        rows.GetString(i, 3), std::move(ts)});
  }
  return page;
}

}  // namespace rockpoint
