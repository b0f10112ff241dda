// The names a rockpoint export file declares in its header line
// ({"kind":"header","format":"rockpoint-export","version":N}), shared by the
// export writer and reader (formats/export_format.h) and by everything
// that must tell an export from a store (the journal backend, LocateStore).
// The format itself: tools/cli/FORMAT_JSONL.md.
#pragma once

#include <cstdint>
#include <string_view>

namespace rockpoint::formats {

// Written in the header line; a reader refuses a greater one.
inline constexpr int64_t kExportFormatVersion = 1;
inline constexpr std::string_view kExportFormatName = "rockpoint-export";

}  // namespace rockpoint::formats
