// RocksDbCheckpointer's Maintenance (rockpoint/maintenance.h): the raw
// record check, figures and raw scan of rocksdb_maintenance.h.
#include "engine/rocksdb/rocksdb_maintenance.h"

#include "engine/backend_rules.h"

namespace rockpoint {

Result<VerifyReport> RocksDbCheckpointer::VerifyRecords(
    const VerifyProgressFn& progress) {
  if (db == nullptr) return StoreClosedError();
  return VerifyStore(*this, progress);
}

Result<StoreFigures> RocksDbCheckpointer::Figures() {
  if (db == nullptr) return StoreClosedError();
  StoreFigures figures;
  figures.backend = BackendKind::kRocksDb;
  RP_ASSIGN_OR_RETURN(figures.rocksdb, Stats());
  RP_ASSIGN_OR_RETURN(figures.rocksdb_tables, TableStats(*this));
  RP_ASSIGN_OR_RETURN(figures.hidden_checkpoints,
                      CountHiddenCheckpoints(*this));
  return figures;
}

Status RocksDbCheckpointer::ScanRaw(std::string_view column_family,
                                    std::string_view key_prefix,
                                    const RawVisitor& visit) {
  if (db == nullptr) return StoreClosedError();
  return ::rockpoint::ScanRaw(*this, column_family, key_prefix, visit);
}

}  // namespace rockpoint
