#include "profiler/formats/detail/CompressedFile.hpp"

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <string>
#include <system_error>

#include "profiler/formats/TraceFormatError.hpp"

namespace trainscope::profiler::detail {

struct CompressedFileReader::Gz {
    gzFile handle = nullptr;
    ~Gz() {
        if (handle != nullptr)
            gzclose_r(handle);
    }
};

CompressedFileReader::CompressedFileReader(std::filesystem::path file)
    : file_(std::move(file)), gz_(std::make_unique<Gz>()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file_, ec)) {
        throw TraceFormatError(file_, "no such file (or not a regular file)");
    }
    stored_ = std::filesystem::file_size(file_, ec);
    if (ec)
        throw TraceFormatError(file_, "cannot read its size: " + ec.message());
    if (stored_ > kMaxTraceFileBytes) {
        throw TraceFormatError(file_, "the file is " + std::to_string(stored_ >> 20) +
                                          " MiB; traces of up to " +
                                          std::to_string(kMaxTraceFileBytes >> 20) +
                                          " MiB are read (profile fewer steps)");
    }
    // A gzip bomb (kilobytes that inflate to gigabytes) stops at this many bytes instead
    // of running for minutes.
    limit_ = std::min<std::uintmax_t>(kMaxTraceFileBytes,
                                      kMinInflateAllowance + stored_ * kMaxInflateRatio);
    gz_->handle = gzopen(file_.c_str(), "rb");
    if (gz_->handle == nullptr)
        throw TraceFormatError(file_, "cannot open for reading");
    // zlib copies a plain file through this buffer for reads under twice its size, and
    // reads straight into the caller's buffer above that; the Kineto reader asks for about
    // 2 MiB at a time, so a 256 KiB buffer spares it a copy of every byte.
    gzbuffer(gz_->handle, 1 << 18);
}

CompressedFileReader::~CompressedFileReader() = default;

std::size_t CompressedFileReader::read(char* out, std::size_t capacity) {
    if (gz_->handle == nullptr)
        return 0;
    std::size_t filled = 0;
    while (filled < capacity) {
        const auto want = static_cast<unsigned>(
            std::min<std::size_t>(capacity - filled, std::numeric_limits<int>::max() / 2));
        const int n = gzread(gz_->handle, out + filled, want);
        if (n < 0) {
            int code = 0;
            const char* message = gzerror(gz_->handle, &code);
            throw TraceFormatError(file_, std::string("cannot decompress: ") + message);
        }
        if (n == 0) {
            // gzread reports a stream cut short only through the close status (Z_BUF_ERROR).
            const int close_status = gzclose_r(gz_->handle);
            gz_->handle = nullptr;
            if (close_status == Z_BUF_ERROR)
                throw TraceFormatError(file_, "gzip stream is truncated");
            if (close_status != Z_OK) {
                throw TraceFormatError(file_, "error while reading (zlib status " +
                                                  std::to_string(close_status) + ")");
            }
            break;
        }
        filled += static_cast<std::size_t>(n);
        inflated_ += static_cast<std::uintmax_t>(n);
        if (inflated_ > limit_) {
            throw TraceFormatError(
                file_, "it inflates to more than " + std::to_string(limit_ >> 20) + " MiB from " +
                           std::to_string(stored_ >> 10) + " KiB (over " +
                           std::to_string(kMaxInflateRatio) +
                           " times its size: a gzip bomb, or an unusually repetitive trace); "
                           "if it is a real trace, gunzip it and import the plain file");
        }
    }
    return filled;
}

}  // namespace trainscope::profiler::detail
