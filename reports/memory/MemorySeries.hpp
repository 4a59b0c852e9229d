#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::reports {

// A traced run's bytes in use per tensor class are counter series named
// "memory/<class>" (unit "bytes", device -1), at most 33 states per step, each step's
// highest kept exactly (docs/formats.md);
// each rank of a multi-rank run has its own, told apart by CounterSeries::rank.
inline constexpr std::string_view kMemorySeriesPrefix = "memory/";

std::string memory_series_name(std::string_view tensor_class);
// Whether `series` is one of those; the class it counts goes to `tensor_class`.
bool is_memory_series(const profiler::CounterSeries& series, std::string* tensor_class = nullptr);

// The classes' series stacked on one time axis: at each time any class changed, every
// class's bytes in use then (a step function: a value holds until the next time). What
// the GUI's memory lane draws.
struct MemoryStack {
    std::int32_t rank = 0;             // whose memory
    std::vector<std::string> classes;  // in the order the trace holds them
    std::vector<std::int64_t> t_ns;    // ascending, on the trace clock
    // bytes[c][i]: class c's bytes in use from t_ns[i] until t_ns[i + 1].
    std::vector<std::vector<double>> bytes;
    double peak_total = 0.0;  // the largest total_at(i)

    [[nodiscard]] bool empty() const { return t_ns.empty(); }
    [[nodiscard]] double total_at(std::size_t i) const;
};

// The stack of one rank's series (a one-process trace's are rank 0's).
MemoryStack memory_stack(const profiler::Trace& trace, std::int32_t rank = 0);
// One stack per rank that has memory series, by rank: ranks' tensors live in separate
// processes (and devices), so their bytes never add up on one stack.
std::vector<MemoryStack> memory_stacks(const profiler::Trace& trace);

}  // namespace trainscope::reports
