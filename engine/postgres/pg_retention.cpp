// TEMPORARY (not for main): replaced by the retention helper.
#include "engine/postgres/postgres_impl.h"
namespace rockpoint {
Status PostgresCheckpointer::Impl::DeleteThread(std::string_view) { return Status::IOError("todo"); }
Status PostgresCheckpointer::Impl::DeleteForRuns(const std::vector<std::string>&) { return Status::IOError("todo"); }
Status PostgresCheckpointer::Impl::CopyThread(std::string_view, std::string_view) { return Status::IOError("todo"); }
Status PostgresCheckpointer::Impl::HideCheckpoint(const CheckpointConfig&) { return Status::IOError("todo"); }
Status PostgresCheckpointer::Impl::Prune(const std::vector<std::string>&, PruneStrategy, size_t) { return Status::IOError("todo"); }
}
