#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace trainscope::reports {

// One tensor class at a run's memory peak (docs/formats.md, tables `memory_peaks` and
// `memory_peak_classes`). The class names are the engine's: weights, gradients,
// optimizer_state, activations, workspace, input_batch, other.
struct ClassPeak {
    std::string tensor_class;
    std::int64_t bytes_at_peak = 0;  // its share of the stacked peak
    std::int64_t max_bytes = 0;      // the most it held at any moment of the run
};

// Where a run's tensor memory went at its peak: the stacked bytes per class at the moment
// all tensors together were largest, and (traced runs) that moment and the op then.
struct MemoryPeak {
    std::vector<ClassPeak> classes;    // in the engine's order
    std::optional<std::int64_t> t_ns;  // on the run's trace clock; traced runs only
    std::string phase;                 // innermost NVTX phase range at t_ns ("forward")
    std::string op;                    // the op running, or next to run, at t_ns
    std::int32_t rank = 0;             // whose peak, in a multi-rank run

    // The sum of bytes_at_peak: the allocator's high-water mark of tensor bytes.
    [[nodiscard]] std::int64_t total_bytes() const;
    [[nodiscard]] const ClassPeak* find(const std::string& tensor_class) const;
};

// A few lines for the run summary and `analyze`: the peak, its breakdown by class largest
// first with shares, and the moment and op when known. One implementation for both.
std::vector<std::string> memory_peak_lines(const MemoryPeak& peak);

}  // namespace trainscope::reports
