#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>

// The key under which the cuDNN call sites keep the descriptors (and algorithm choices)
// of each problem they met: the problem's integers, compared and hashed as they are. A
// step's calls then find their descriptors without building a string or a descriptor
// (docs/cuda-backend.md, "Host work per call").
namespace trainscope::workloads::cuda {

template <std::size_t N>
struct DescriptorKey {
    std::array<int, N> values{};
    bool operator==(const DescriptorKey&) const = default;
};

template <std::size_t N>
struct DescriptorKeyHash {
    std::size_t operator()(const DescriptorKey<N>& key) const noexcept {
        std::uint64_t hash = 14695981039346656037ull;  // FNV-1a over the 32-bit values
        for (int value : key.values) {
            hash ^= static_cast<std::uint32_t>(value);
            hash *= 1099511628211ull;
        }
        return static_cast<std::size_t>(hash);
    }
};

template <std::size_t N, typename Value>
using DescriptorCache = std::unordered_map<DescriptorKey<N>, Value, DescriptorKeyHash<N>>;

}  // namespace trainscope::workloads::cuda
