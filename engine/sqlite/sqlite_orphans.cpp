// SqliteCheckpointer::FindOrphanWrites: one anti-join of checkpoint_writes
// against checkpoints.
#include "engine/orphan_writes_sql.h"
#include "engine/sqlite/sqlite_impl.h"

namespace rockpoint {

Result<std::vector<WriteLocation>> SqliteCheckpointer::FindOrphanWrites() {
  base::MutexLock lock(&mu_);
  RP_RETURN_IF_ERROR(CheckOpen());
  using sqlite_internal::Statement;
  using sqlite_internal::Transaction;
  RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginRead(db()));
  RP_ASSIGN_OR_RETURN(Statement select, db()->Prepare(kSelectOrphanWritesSql));
  std::vector<WriteLocation> orphans;
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    orphans.push_back({select.ColumnString(0), select.ColumnString(1),
                       select.ColumnString(2), select.ColumnString(3),
                       select.ColumnString(4), select.ColumnInt(5)});
  }
  return orphans;
}

}  // namespace rockpoint
