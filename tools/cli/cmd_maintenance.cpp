// `compact` (RocksDB: flush and compact every column family; JSONL: rewrite
// the journal as a snapshot of what it holds) and `dump` (RocksDB: the raw
// records, keys decoded).
#include "formats/json_text.h"
#include "keys/tuple.h"
#include "rockpoint/maintenance.h"
#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"

namespace rockpoint::cli {
namespace {

constexpr size_t kPreviewBytes = 24;

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out.push_back(kDigits[static_cast<uint8_t>(c) >> 4]);
    out.push_back(kDigits[static_cast<uint8_t>(c) & 15]);
  }
  return out;
}

// Compacts the store; `doc` gets its size before and after (RocksDB: bytes
// on disk; a journal: bytes and lines).
Status CompactAndReport(Checkpointer& store, formats::Json& doc) {
  RP_ASSIGN_OR_RETURN(const StoreFigures before, Figures(store));
  RP_RETURN_IF_ERROR(Compact(store));
  RP_ASSIGN_OR_RETURN(const StoreFigures after, Figures(store));
  if (before.rocksdb && after.rocksdb) {
    doc["disk_bytes_before"] = before.rocksdb->total_disk_bytes;
    doc["disk_bytes_after"] = after.rocksdb->total_disk_bytes;
    doc["compaction_bytes_written"] = after.rocksdb->compaction_bytes_written;
  }
  if (before.jsonl && after.jsonl) {
    doc["file_bytes_before"] = before.jsonl->file_bytes;
    doc["file_bytes_after"] = after.jsonl->file_bytes;
    doc["lines_before"] = before.jsonl->lines;
    doc["lines_after"] = after.jsonl->lines;
  }
  return Status::OK();
}

class CompactCommand final : public Command {
 public:
  const char* name() const override { return "compact"; }
  const char* help() const override {
    return "Compact the store (RocksDB: flush and compact every column "
           "family; JSONL: rewrite the journal without its dead lines)";
  }
  Access access() const override { return Access::kWrite; }
  void AddFlags(CLI::App& app) override {}

  Result<int> Run(Context& context) override {
    Store& store = *context.store;
    formats::Json doc = formats::Json::object();
    doc["backend"] = BackendName(store.backend());
    if (store.backend() == Backend::kSqlite) {
      return Status::InvalidArgument(
          "compact is not supported for SQLite stores (run `sqlite3 FILE "
          "VACUUM`)");
    }
    if (store.backend() == Backend::kPostgres) {
      return Status::InvalidArgument(
          "compact is not supported for PostgreSQL stores (the server "
          "reclaims space: VACUUM)");
    }
    RP_RETURN_IF_ERROR(CompactAndReport(store.checkpointer(), doc));
    context.Print(Output::Document(std::move(doc)));
    return kExitOk;
  }
};

class DumpCommand final : public Command {
 public:
  const char* name() const override { return "dump"; }
  const char* help() const override {
    return "Dump the raw records of a RocksDB store (keys decoded as tuples, "
           "values as bytes)";
  }
  Access access() const override { return Access::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_option("--cf", column_family_,
                   "Only this column family (checkpoints, blobs, writes, "
                   "index, meta)");
    app.add_option("--thread", thread_,
                   "Only the keys of this thread (cp, bl, wr, th keys)");
    app.add_option("--limit", limit_, "At most N entries")
        ->check(CountValidator());
  }

  Result<int> Run(Context& context) override {
    RP_RETURN_IF_ERROR(context.DecodeIds(thread_));
    if (context.store->backend() != Backend::kRocksDb) {
      return Status::InvalidArgument(
          "dump needs a RocksDB store, not " +
          std::string(BackendName(context.store->backend())));
    }
    Output output = Output::Rows({{"column_family", "CF"},
                                  {"key", "KEY"},
                                  {"value_bytes", "BYTES"},
                                  {"value_hex", "VALUE (HEX)"}});
    size_t shown = 0;
    const auto visit = [&](const RawEntry& entry) {
      if (thread_) {
        auto tuple = keys::Decode(entry.key);
        if (!tuple.ok() || tuple->size() < 2 ||
            !std::holds_alternative<std::string>((*tuple)[1]) ||
            std::get<std::string>((*tuple)[1]) != *thread_) {
          return true;
        }
      }
      formats::Json row = formats::Json::object();
      row["column_family"] = entry.column_family;
      row["key"] = formats::TextToJson(keys::Describe(entry.key));
      row["value_bytes"] = entry.value.size();
      if (context.table()) {
        row["value_hex"] = Hex(entry.value.substr(0, kPreviewBytes)) +
                           (entry.value.size() > kPreviewBytes ? "..." : "");
      } else {
        row["key_b64"] = formats::Base64Encode(entry.key);
        row["value_b64"] = formats::Base64Encode(entry.value);
      }
      output.rows.push_back(std::move(row));
      return !limit_ || ++shown < *limit_;
    };
    RP_RETURN_IF_ERROR(
        ScanRaw(context.store->checkpointer(), column_family_, "", visit));
    context.Print(output);
    return kExitOk;
  }

 private:
  std::string column_family_;
  std::optional<std::string> thread_;
  std::optional<size_t> limit_;
};

}  // namespace

std::unique_ptr<Command> MakeCompactCommand() {
  return std::make_unique<CompactCommand>();
}
std::unique_ptr<Command> MakeDumpCommand() {
  return std::make_unique<DumpCommand>();
}

}  // namespace rockpoint::cli
