#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>

namespace trainscope::profiler::detail {

// The most bytes a trace may have, stored or inflated: 64 GiB. The Kineto reader streams
// the file in bounded chunks, so this guards the time an import takes, not its memory.
inline constexpr std::uintmax_t kMaxTraceFileBytes = std::uintmax_t{64} << 30;
// A gzip file may inflate to this many times its size plus the allowance; real Kineto
// traces inflate 12 to 30 times, a gzip bomb about 1,000 times.
inline constexpr std::uintmax_t kMaxInflateRatio = 50;
inline constexpr std::uintmax_t kMinInflateAllowance = std::uintmax_t{16} << 20;

// Reads a file front to back in pieces, inflating it when it is gzip-compressed (zlib
// reads plain files unchanged), so that a trace never has to fit in memory whole.
// Throws TraceFormatError naming the file when it is missing, unreadable, a
// truncated/corrupt gzip stream, or larger than the limits above.
class CompressedFileReader {
  public:
    explicit CompressedFileReader(std::filesystem::path file);
    ~CompressedFileReader();
    CompressedFileReader(const CompressedFileReader&) = delete;
    CompressedFileReader& operator=(const CompressedFileReader&) = delete;

    // Fills up to `capacity` bytes; returns how many, 0 only at the end of the content.
    std::size_t read(char* out, std::size_t capacity);
    [[nodiscard]] std::uintmax_t stored_bytes() const { return stored_; }
    [[nodiscard]] const std::filesystem::path& file() const { return file_; }

  private:
    struct Gz;
    std::filesystem::path file_;
    std::unique_ptr<Gz> gz_;
    std::uintmax_t stored_ = 0;
    std::uintmax_t limit_ = 0;
    std::uintmax_t inflated_ = 0;
};

}  // namespace trainscope::profiler::detail
