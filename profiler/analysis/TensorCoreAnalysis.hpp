#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Kernels whose names say they run on tensor cores (see uses_tensor_cores), and their
// share of all kernel time (summed durations).
struct TensorCoreUsage {
    std::int64_t tensor_core_kernel_count = 0;
    std::int64_t tensor_core_ns = 0;
    std::int64_t kernel_count = 0;
    std::int64_t kernel_ns = 0;
    double share = 0.0;                     // tensor_core_ns / kernel_ns
    std::vector<std::string> kernel_names;  // distinct tensor-core kernel names, sorted
};

// The usage as activities pass one at a time (a streamed import); what it holds is a
// verdict per distinct kernel name, not the activities. analyze_tensor_core_usage is
// this over every activity of a trace.
class TensorCoreAccumulator {
  public:
    // `strings` must outlive the accumulator.
    explicit TensorCoreAccumulator(const StringTable& strings) : strings_(strings) {}
    void add(const Activity& a);
    [[nodiscard]] TensorCoreUsage finish() const;

  private:
    const StringTable& strings_;
    TensorCoreUsage usage_;
    std::unordered_map<StringId, bool> verdicts_;  // classify each distinct name once
    std::set<StringId> tensor_core_names_;
};

TensorCoreUsage analyze_tensor_core_usage(const Trace& trace);

}  // namespace trainscope::profiler
