// TEMPORARY (not for main): replaced by the delta helper.
#include "engine/postgres/postgres_impl.h"
namespace rockpoint {
Result<DeltaHistory> PostgresCheckpointer::Impl::GetDeltaChannelHistory(const CheckpointConfig&, const std::vector<std::string>&) { return Status::IOError("todo"); }
}
