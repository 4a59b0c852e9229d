#include "workloads/datasets/IdxFile.hpp"

#include <zlib.h>

#include <array>
#include <limits>
#include <memory>
#include <string>

#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {
namespace {

struct GzCloser {
    void operator()(gzFile file) const noexcept { gzclose(file); }
};
using GzFileHandle = std::unique_ptr<gzFile_s, GzCloser>;

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& why) {
    throw ConfigError("dataset file " + path.string() + ": " + why);
}

std::string gz_error_text(gzFile file) {
    int code = Z_OK;
    const char* text = gzerror(file, &code);
    return text != nullptr && code != Z_OK ? std::string(" (") + text + ")" : std::string();
}

// zlib reads raw files unchanged, so one path serves .gz and uncompressed files.
GzFileHandle open(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        fail(path, "not found; scripts/bootstrap installs Debian's dataset-fashion-mnist");
    }
    GzFileHandle file(gzopen(path.c_str(), "rb"));
    if (!file) {
        fail(path, "cannot be opened");
    }
    return file;
}

// Reads exactly `bytes` or fails, telling truncation apart from corruption.
void read_exactly(gzFile file, const std::filesystem::path& path, void* into, std::size_t bytes,
                  const std::string& what) {
    auto* out = static_cast<unsigned char*>(into);
    std::size_t done = 0;
    while (done < bytes) {
        const std::size_t chunk =
            std::min<std::size_t>(bytes - done, std::numeric_limits<int>::max() / 2);
        const int got = gzread(file, out + done, static_cast<unsigned>(chunk));
        if (got < 0) {
            fail(path, "corrupt while reading " + what + gz_error_text(file));
        }
        if (got == 0) {
            fail(path, "truncated: " + what + " needs " + std::to_string(bytes) +
                           " bytes, the file ends after " + std::to_string(done) +
                           gz_error_text(file));
        }
        done += static_cast<std::size_t>(got);
    }
}

std::vector<std::uint32_t> read_header(gzFile file, const std::filesystem::path& path) {
    std::array<unsigned char, 4> magic{};
    read_exactly(file, path, magic.data(), magic.size(), "the IDX magic number");
    if (magic[0] != 0 || magic[1] != 0) {
        fail(path, "not an IDX file (magic number does not start with two zero bytes)");
    }
    if (magic[2] != 0x08) {
        fail(path, "IDX element type 0x" + std::to_string(magic[2]) +
                       " is not supported; only unsigned bytes (0x08)");
    }
    const int rank = magic[3];
    if (rank < 1 || rank > 4) {
        fail(path, "IDX rank " + std::to_string(rank) + " is outside 1..4");
    }
    std::vector<std::uint32_t> dims(static_cast<std::size_t>(rank));
    for (std::uint32_t& dim : dims) {
        std::array<unsigned char, 4> bytes{};
        read_exactly(file, path, bytes.data(), bytes.size(), "the IDX dimensions");
        dim = (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
              (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]};
        if (dim == 0) {
            fail(path, "an IDX dimension is zero");
        }
    }
    return dims;
}

}  // namespace

std::vector<std::uint32_t> read_idx_dims(const std::filesystem::path& path) {
    GzFileHandle file = open(path);
    return read_header(file.get(), path);
}

IdxArray read_idx_file(const std::filesystem::path& path) {
    GzFileHandle file = open(path);
    IdxArray array;
    array.dims = read_header(file.get(), path);
    std::uint64_t count = 1;
    for (std::uint32_t dim : array.dims) {
        count *= dim;
        if (count > (std::uint64_t{1} << 36)) {
            fail(path, "IDX dimensions describe more than 64 GiB");
        }
    }
    array.values.resize(static_cast<std::size_t>(count));
    read_exactly(file.get(), path, array.values.data(), array.values.size(), "the IDX data");
    unsigned char extra = 0;
    const int more = gzread(file.get(), &extra, 1);
    if (more < 0) {
        fail(path, "corrupt after the IDX data" + gz_error_text(file.get()));
    }
    if (more > 0) {
        fail(path, "has bytes after the " + std::to_string(count) + " values its header announces");
    }
    return array;
}

}  // namespace trainscope::workloads
