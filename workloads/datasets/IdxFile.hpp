#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace trainscope::workloads {

// An IDX array of unsigned bytes (the MNIST family's format): big-endian dimensions,
// then the values row-major.
struct IdxArray {
    std::vector<std::uint32_t> dims;
    std::vector<std::uint8_t> values;
};

// Reads a gzip-compressed or raw IDX file of unsigned bytes. Throws ConfigError naming
// the file for a missing, truncated, oversized or corrupt file or a wrong magic number.
IdxArray read_idx_file(const std::filesystem::path& path);
// Only the dimensions, from the header.
std::vector<std::uint32_t> read_idx_dims(const std::filesystem::path& path);

}  // namespace trainscope::workloads
