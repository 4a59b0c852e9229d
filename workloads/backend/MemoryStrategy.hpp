#pragma once

#include <array>
#include <string>
#include <string_view>

namespace trainscope::workloads {

// The memory strategy axes (docs/architecture.md, "Memory strategy axes"). Each parses
// once where text comes in (CLI, matrix file, cell job) and is an enum from there on;
// to_string gives the spelling the database and the CSV files store.

// Where tensor memory comes from. `pool` is the engine's CachingPool (PyTorch's
// default), `device` a raw allocation per tensor; `async` and `managed` are CUDA's.
enum class Allocator { pool, device, async, managed };
// Staging buffers for input batches (CUDA only).
enum class HostMemory { pageable, pinned };
// Copy then compute, or copies on a copy stream overlapping compute (CUDA only).
enum class Transfer { sync, overlap };
// Batches copied each step, or the dataset on the device once (CUDA only).
enum class Placement { stream, resident };
// Keep activations for backward, or recompute checkpointed segments.
enum class Activations { keep, recompute };

inline constexpr std::array kAllocators{Allocator::pool, Allocator::device, Allocator::async,
                                        Allocator::managed};
inline constexpr std::array kHostMemories{HostMemory::pageable, HostMemory::pinned};
inline constexpr std::array kTransfers{Transfer::sync, Transfer::overlap};
inline constexpr std::array kPlacements{Placement::stream, Placement::resident};
inline constexpr std::array kActivations{Activations::keep, Activations::recompute};

// Each throws ConfigError naming the axis, the bad value and the valid ones.
Allocator parse_allocator(std::string_view text);
HostMemory parse_host_memory(std::string_view text);
Transfer parse_transfer(std::string_view text);
Placement parse_placement(std::string_view text);
Activations parse_activations(std::string_view text);

std::string to_string(Allocator allocator);
std::string to_string(HostMemory host_memory);
std::string to_string(Transfer transfer);
std::string to_string(Placement placement);
std::string to_string(Activations activations);

// pool and device run on every backend; async and managed are CUDA allocators.
bool allocator_needs_cuda(Allocator allocator);

}  // namespace trainscope::workloads
