// Raw access for maintenance (rocksdb_maintenance.h): scans of a column
// family's bytes, a raw write for tests, SST table figures, the hidden
// checkpoint count.
#include <rocksdb/table_properties.h>

#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "engine/rocksdb/rocksdb_maintenance.h"
#include "engine/rocksdb/rocksdb_options.h"

namespace rockpoint {
namespace {

// The handle of a family by name; InvalidArgument for an unknown one.
Result<rocksdb::ColumnFamilyHandle*> FamilyByName(
    const RocksDbCheckpointer& backend, std::string_view name) {
  for (rocksdb::ColumnFamilyHandle* family :
       {backend.checkpoints, backend.blobs, backend.writes, backend.index,
        backend.meta}) {
    if (family->GetName() == name) return family;
  }
  return Status::InvalidArgument(
      "unknown column family \"" + std::string(name) +
      "\" (checkpoints, blobs, writes, index or meta)");
}

}  // namespace

std::vector<std::string> ColumnFamilyNames() {
  return {kCheckpointsFamily, kBlobsFamily, kWritesFamily, kIndexFamily,
          kMetaFamily};
}

Status ScanRaw(RocksDbCheckpointer& backend, std::string_view column_family,
               std::string_view key_prefix,
               const std::function<bool(const RawEntry&)>& visit) {
  std::vector<rocksdb::ColumnFamilyHandle*> families;
  if (column_family.empty()) {
    for (const std::string& name : ColumnFamilyNames()) {
      RP_ASSIGN_OR_RETURN(rocksdb::ColumnFamilyHandle * family,
                          FamilyByName(backend, name));
      families.push_back(family);
    }
  } else {
    RP_ASSIGN_OR_RETURN(rocksdb::ColumnFamilyHandle * family,
                        FamilyByName(backend, column_family));
    families.push_back(family);
  }
  ScopedSnapshot snapshot(backend);
  RawEntry entry;
  for (rocksdb::ColumnFamilyHandle* family : families) {
    entry.column_family = family->GetName();
    PrefixScan scan =
        backend.Scan(family, snapshot.Read(), std::string(key_prefix));
    for (PrefixScan::Entry raw : scan) {
      entry.key = raw.key();
      entry.value = raw.value();
      if (!visit(entry)) return Status::OK();
    }
    RP_RETURN_IF_ERROR(scan.status("scan " + entry.column_family));
  }
  return Status::OK();
}

Status PutRawForTesting(RocksDbCheckpointer& backend,
                        std::string_view column_family, std::string_view key,
                        std::string_view value) {
  RP_RETURN_IF_ERROR(backend.CheckWritable());
  RP_ASSIGN_OR_RETURN(rocksdb::ColumnFamilyHandle * family,
                      FamilyByName(backend, column_family));
  rocksdb::WriteOptions write;
  write.sync = backend.options.sync_writes;
  return ToStatus(backend.db->Put(write, family, rocksdb::Slice(key),
                                  rocksdb::Slice(value)),
                  "raw put");
}

Result<std::vector<TableFigures>> TableStats(RocksDbCheckpointer& backend) {
  std::vector<TableFigures> figures;
  for (const std::string& name : ColumnFamilyNames()) {
    RP_ASSIGN_OR_RETURN(rocksdb::ColumnFamilyHandle * family,
                        FamilyByName(backend, name));
    rocksdb::TablePropertiesCollection tables;
    RP_RETURN_IF_ERROR(
        ToStatus(backend.db->GetPropertiesOfAllTables(family, &tables),
                 "table properties of " + name));
    TableFigures table;
    table.column_family = name;
    for (const auto& [file, properties] : tables) {
      ++table.sst_files;
      table.entries += properties->num_entries;
      table.raw_key_bytes += properties->raw_key_size;
      table.raw_value_bytes += properties->raw_value_size;
      table.data_bytes += properties->data_size;
    }
    figures.push_back(std::move(table));
  }
  return figures;
}

Result<uint64_t> CountHiddenCheckpoints(RocksDbCheckpointer& backend) {
  ScopedSnapshot snapshot(backend);
  PrefixScan scan =
      backend.Scan(backend.index, snapshot.Read(),
                   rocksdb_layout::TagPrefix(rocksdb_layout::kHiddenTag));
  uint64_t count = 0;
  for (PrefixScan::Entry entry [[maybe_unused]] : scan) ++count;
  RP_RETURN_IF_ERROR(scan.status("count hidden checkpoints"));
  return count;
}

}  // namespace rockpoint
