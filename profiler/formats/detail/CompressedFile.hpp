#pragma once

#include <filesystem>
#include <string>

namespace trainscope::profiler::detail {

// Reads a whole file into memory, inflating it when it is gzip-compressed (zlib reads
// plain files unchanged). Throws TraceFormatError naming the file when it is missing,
// unreadable or a truncated/corrupt gzip stream.
std::string read_possibly_gzipped_file(const std::filesystem::path& file);

}  // namespace trainscope::profiler::detail
