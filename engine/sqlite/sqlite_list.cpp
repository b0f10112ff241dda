// list (a page-wise cursor) and list_threads.
//
// The cursor runs one query per page, "WHERE <constraints> AND (key) <
// (last key) ORDER BY checkpoint_id DESC, thread_id DESC, checkpoint_ns DESC
// LIMIT page", resuming after the last row it returned (keyset paging), so a
// long history is never materialized and no statement stays open between
// calls. Metadata is decoded and the filter evaluated per row in C++; only
// matching rows get their values and writes loaded (one query each).
#include <deque>
#include <string>
#include <utility>

#include "engine/backend_rules.h"
#include "engine/sqlite/sqlite_impl.h"

namespace rockpoint {
namespace {

using sqlite_internal::Statement;
using sqlite_internal::Transaction;
using sqlite_queries::kCheckpointColumns;

constexpr size_t kPageRows = 64;

class SqliteListCursor final : public TupleCursor {
 public:
  SqliteListCursor(SqliteCheckpointer* store, ListOptions options)
      : store_(store), options_(std::move(options)) {
    if (options_.config) {
      thread_id_ = options_.config->thread_id;
      checkpoint_ns_ = options_.config->checkpoint_ns;
      checkpoint_id_ = options_.config->checkpoint_id;
    }
    if (options_.before) before_ = options_.before->checkpoint_id;
    // With a fixed id, `before` is a yes/no question answered here.
    if (checkpoint_id_ && before_ && !(*checkpoint_id_ < *before_)) {
      exhausted_ = true;
    }
    remaining_ = options_.limit;
    filtered_ = !options_.filter.as_map().empty();
  }

  // Tuples read before an error are returned first, then the error once,
  // then the end.
  Result<std::optional<CheckpointTuple>> Next() override {
    if (buffer_.empty() && !exhausted_) {
      Status status = FetchPage();
      if (!status.ok()) {
        exhausted_ = true;
        error_ = std::move(status);
      }
    }
    if (!buffer_.empty()) {
      CheckpointTuple tuple = std::move(buffer_.front());
      buffer_.pop_front();
      return std::optional<CheckpointTuple>(std::move(tuple));
    }
    if (!error_.ok()) return std::exchange(error_, Status::OK());
    return std::optional<CheckpointTuple>();
  }

 private:
  Status FetchPage() {
    size_t page = kPageRows;
    if (remaining_) {
      if (*remaining_ == 0) {
        exhausted_ = true;
        return Status::OK();
      }
      if (!filtered_) page = std::min(page, *remaining_);
    }
    base::MutexLock lock(&store_->mu());
    RP_RETURN_IF_ERROR(store_->CheckOpen());
    RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginRead(store_->db()));
    std::vector<SqliteCheckpointRow> rows;
    {
      RP_ASSIGN_OR_RETURN(
          Statement select,
          store_->db()->Prepare(sqlite_queries::ListPageQuery(
              thread_id_.has_value(), checkpoint_ns_.has_value(),
              checkpoint_id_.has_value(), before_.has_value(),
              last_.has_value(), options_.include_hidden)));
      if (thread_id_) select.BindBytes(1, *thread_id_);
      if (checkpoint_ns_) select.BindBytes(2, *checkpoint_ns_);
      if (checkpoint_id_) select.BindBytes(3, *checkpoint_id_);
      if (before_ && !checkpoint_id_) select.BindBytes(4, *before_);
      if (last_) {
        select.BindBytes(5, last_->checkpoint_id);
        select.BindBytes(6, last_->thread_id);
        select.BindBytes(7, last_->checkpoint_ns);
      }
      select.BindInt(8, static_cast<int64_t>(page));
      while (true) {
        RP_ASSIGN_OR_RETURN(bool row, select.Step());
        if (!row) break;
        rows.push_back(ReadCheckpointRow(select));
      }
    }
    // A short page is the last; so is any page when thread, namespace and
    // id are all fixed (at most one row matches).
    if (rows.size() < page ||
        (thread_id_ && checkpoint_ns_ && checkpoint_id_)) {
      exhausted_ = true;
    }
    for (SqliteCheckpointRow& row : rows) {
      last_ = Key{row.checkpoint_id, row.thread_id, row.checkpoint_ns};
      RP_ASSIGN_OR_RETURN(Metadata metadata, store_->DecodeRowMetadata(row));
      if (filtered_ && !MetadataMatches(metadata, options_.filter)) continue;
      RP_ASSIGN_OR_RETURN(CheckpointTuple tuple,
                          store_->BuildTuple(row, std::move(metadata)));
      buffer_.push_back(std::move(tuple));
      if (remaining_ && --*remaining_ == 0) {
        exhausted_ = true;
        break;
      }
    }
    return Status::OK();
  }

  struct Key {
    std::string checkpoint_id;
    std::string thread_id;
    std::string checkpoint_ns;
  };

  SqliteCheckpointer* const store_;
  const ListOptions options_;
  std::optional<std::string> thread_id_;
  std::optional<std::string> checkpoint_ns_;
  std::optional<std::string> checkpoint_id_;
  std::optional<std::string> before_;
  std::optional<size_t> remaining_;
  bool filtered_ = false;
  bool exhausted_ = false;
  std::optional<Key> last_;  // the last row read; the next page starts after.
  std::deque<CheckpointTuple> buffer_;
  Status error_;  // returned after the buffered tuples.
};

}  // namespace

std::string sqlite_queries::ListPageQuery(bool thread, bool ns, bool id,
                                          bool before, bool resume,
                                          bool include_hidden) {
  std::string sql = std::string("SELECT ") + kCheckpointColumns +
                    " FROM checkpoints WHERE " +
                    (include_hidden ? "1" : "hidden = 0");
  if (thread) sql += " AND thread_id = ?1";
  if (ns) sql += " AND checkpoint_ns = ?2";
  if (id) sql += " AND checkpoint_id = ?3";
  if (before && !id) sql += " AND checkpoint_id < ?4";
  if (resume) {
    std::string columns;
    std::string params;
    auto add = [&](const char* column, const char* param) {
      columns += (columns.empty() ? "" : ", ") + std::string(column);
      params += (params.empty() ? "" : ", ") + std::string(param);
    };
    if (!id) add("checkpoint_id", "?5");
    if (!thread) add("thread_id", "?6");
    if (!ns) add("checkpoint_ns", "?7");
    if (!columns.empty()) {
      sql += " AND (" + columns + ") < (" + params + ")";
    }
  }
  sql +=
      " ORDER BY checkpoint_id DESC, thread_id DESC, checkpoint_ns DESC "
      "LIMIT ?8";
  return sql;
}

std::unique_ptr<TupleCursor> MakeSqliteListCursor(SqliteCheckpointer* store,
                                                  ListOptions options) {
  return std::make_unique<SqliteListCursor>(store, std::move(options));
}

Result<ThreadPage> SqliteCheckpointer::DoListThreads(
    const ListThreadsOptions& options) {
  base::MutexLock lock(&mu_);
  // One row per visible (thread, ns); SQLite takes the bare column `ts`
  // from the row holding MAX(checkpoint_id).
  static const std::string kGroups =
      "SELECT thread_id, checkpoint_ns, COUNT(*), MAX(checkpoint_id), ts "
      "FROM checkpoints WHERE hidden = 0 "
      "GROUP BY thread_id, checkpoint_ns ORDER BY thread_id, checkpoint_ns";
  static const std::string kGroupsAfter =
      "SELECT thread_id, checkpoint_ns, COUNT(*), MAX(checkpoint_id), ts "
      "FROM checkpoints WHERE hidden = 0 AND thread_id > ?1 "
      "GROUP BY thread_id, checkpoint_ns ORDER BY thread_id, checkpoint_ns";
  ThreadPage page;
  RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginRead(db()));
  RP_ASSIGN_OR_RETURN(Statement select,
                      db()->Prepare(options.after ? kGroupsAfter : kGroups));
  if (options.after) select.BindBytes(1, *options.after);
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const std::string_view thread_id = select.ColumnView(0);
    if (page.threads.empty() || page.threads.back().thread_id != thread_id) {
      if (page.threads.size() == options.limit) {
        page.next_after = page.threads.back().thread_id;  // more follow.
        break;
      }
      page.threads.push_back(ThreadInfo{std::string(thread_id), {}});
    }
    NamespaceInfo info;
    info.checkpoint_ns = select.ColumnString(1);
    info.checkpoint_count = static_cast<uint64_t>(select.ColumnInt(2));
    info.latest_checkpoint_id = select.ColumnString(3);
    info.latest_ts = select.ColumnString(4);
    page.threads.back().namespaces.push_back(std::move(info));
  }
  return page;
}

}  // namespace rockpoint
