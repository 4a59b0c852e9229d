#include "profiler/formats/detail/CompressedFile.hpp"

#include <zlib.h>

#include <algorithm>
#include <memory>
#include <system_error>

#include "profiler/formats/TraceFormatError.hpp"

namespace trainscope::profiler::detail {

namespace {

struct GzFileCloser {
    void operator()(gzFile f) const noexcept { gzclose_r(f); }
};
// gzFile is itself a pointer type, so the owner stores it as-is.
using GzFileOwner = std::unique_ptr<gzFile_s, GzFileCloser>;

}  // namespace

std::string read_possibly_gzipped_file(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
        throw TraceFormatError(file, "no such file (or not a regular file)");
    }
    const std::uintmax_t stored = std::filesystem::file_size(file, ec);
    if (ec)
        throw TraceFormatError(file, "cannot read its size: " + ec.message());
    if (stored > kMaxTraceFileBytes) {
        throw TraceFormatError(file, "the file is " + std::to_string(stored >> 20) +
                                         " MiB; traces of up to " +
                                         std::to_string(kMaxTraceFileBytes >> 20) +
                                         " MiB are read (profile fewer steps)");
    }
    // Memory stays bounded whatever the input: a gzip bomb (kilobytes that inflate to
    // gigabytes) stops at this many bytes instead of exhausting memory.
    const std::uintmax_t limit = std::min<std::uintmax_t>(
        kMaxTraceFileBytes, kMinInflateAllowance + stored * kMaxInflateRatio);
    GzFileOwner gz(gzopen(file.c_str(), "rb"));
    if (!gz)
        throw TraceFormatError(file, "cannot open for reading");
    gzbuffer(gz.get(), 1 << 20);

    std::string content;
    constexpr unsigned kChunk = 1 << 20;
    for (;;) {
        const std::size_t old_size = content.size();
        content.resize(old_size + kChunk);
        const int n = gzread(gz.get(), content.data() + old_size, kChunk);
        if (n < 0) {
            int code = 0;
            const char* message = gzerror(gz.get(), &code);
            throw TraceFormatError(file, std::string("cannot decompress: ") + message);
        }
        content.resize(old_size + static_cast<std::size_t>(n));
        if (n == 0)
            break;
        if (content.size() > limit) {
            throw TraceFormatError(
                file, "it inflates to more than " + std::to_string(limit >> 20) + " MiB from " +
                          std::to_string(stored >> 10) + " KiB (over " +
                          std::to_string(kMaxInflateRatio) +
                          " times its size: a gzip bomb, or an unusually repetitive trace); "
                          "if it is a real trace, gunzip it and import the plain file");
        }
    }
    // gzread reports a stream cut short only through the close status (Z_BUF_ERROR).
    const int close_status = gzclose_r(gz.release());
    if (close_status == Z_BUF_ERROR) {
        throw TraceFormatError(file, "gzip stream is truncated");
    }
    if (close_status != Z_OK) {
        throw TraceFormatError(
            file, "error while reading (zlib status " + std::to_string(close_status) + ")");
    }
    return content;
}

}  // namespace trainscope::profiler::detail
