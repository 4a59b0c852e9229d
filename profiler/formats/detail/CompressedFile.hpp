#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace trainscope::profiler::detail {

// The most bytes a trace may have, stored or inflated: 4 GiB.
inline constexpr std::uintmax_t kMaxTraceFileBytes = std::uintmax_t{4} << 30;
// A gzip file may inflate to this many times its size plus the allowance; real Kineto
// traces inflate 12 to 30 times, a gzip bomb about 1,000 times.
inline constexpr std::uintmax_t kMaxInflateRatio = 50;
inline constexpr std::uintmax_t kMinInflateAllowance = std::uintmax_t{16} << 20;

// Reads a whole file into memory, inflating it when it is gzip-compressed (zlib reads
// plain files unchanged). Throws TraceFormatError naming the file when it is missing,
// unreadable, a truncated/corrupt gzip stream, or larger than the limits above.
std::string read_possibly_gzipped_file(const std::filesystem::path& file);

}  // namespace trainscope::profiler::detail
