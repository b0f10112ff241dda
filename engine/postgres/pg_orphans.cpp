// PostgresCheckpointer::FindOrphanWrites: one anti-join of LangGraph's
// checkpoint_writes against its checkpoints.
#include "engine/orphan_writes_sql.h"
#include "engine/postgres/postgres_impl.h"

namespace rockpoint {

Result<std::vector<WriteLocation>> PostgresCheckpointer::FindOrphanWrites() {
  RP_RETURN_IF_ERROR(CheckOpen());
  RP_ASSIGN_OR_RETURN(PostgresCheckpointer::Lease lease, Acquire());
  RP_ASSIGN_OR_RETURN(
      pg::Rows rows,
      lease->RunOne(pg::Query{
          &Stmt("rp_orphan_writes", kSelectOrphanWritesSql), "", {}}));
  std::vector<WriteLocation> orphans;
  for (int i = 0; i < rows.size(); ++i) {
    orphans.push_back({rows.GetString(i, 0), rows.GetString(i, 1),
                       rows.GetString(i, 2), rows.GetString(i, 3),
                       rows.GetString(i, 4), rows.GetInt(i, 5)});
  }
  return orphans;
}

}  // namespace rockpoint
