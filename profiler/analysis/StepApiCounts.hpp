#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// What a CUDA runtime API call costs a training step, read from its name
// (cuptiGetCallbackName's "cudaMalloc_v3020" or a plain "cudaMalloc").
enum class RuntimeCallClass {
    allocation,       // cudaMalloc*, cudaHostAlloc
    free,             // cudaFree* (cudaFreeHost, cudaFreeAsync included)
    synchronization,  // cuda*Synchronize
    memcpy,           // cudaMemcpy*
    other,
};
RuntimeCallClass classify_runtime_call(std::string_view name);

struct ApiCallCounts {
    std::int64_t allocations = 0;
    std::int64_t frees = 0;
    std::int64_t synchronizations = 0;
    std::int64_t memcpys = 0;
    std::int64_t runtime_calls = 0;  // every runtime API call, the above included
    // Kernels whose launching call (runtime or driver API, joined by correlation id)
    // began here: cuDNN and cuBLAS launch through the driver API, so launch calls alone
    // would miss theirs.
    std::int64_t kernel_launches = 0;
};

// The API calls of one training step: those on the step range's thread that begin in
// it, split into the step's own and those inside its data-load ranges (the staging of
// a batch, outside the timed window). `window` is the part of the step's own calls made
// inside its timed-window range: what the step's measured time covers, without the
// wait after it (the engine marks it; traces from elsewhere have none).
struct StepApiCounts {
    std::size_t range_index = 0;  // index of the step range in trace.activities
    std::int64_t begin_ns = 0;
    std::int64_t end_ns = 0;
    ApiCallCounts step;
    ApiCallCounts data;
    ApiCallCounts window;
    bool has_window = false;
};

struct StepApiCountOptions {
    std::string step_range = "step";
    std::string data_range = "data load";
    std::string window_range = "timed window";
};

// One entry per host NVTX range named options.step_range, in trace order. Empty when the
// trace has no such ranges; all counts 0 when it has no API records (a trace recorded
// below --trace full, or a CPU-backend trace). Threads are matched by (process, thread).
std::vector<StepApiCounts> count_api_calls_per_step(const Trace& trace,
                                                    const StepApiCountOptions& options = {});

// The counts as activities pass one at a time in trace order (analyze reads a huge run's
// rows without holding them); count_api_calls_per_step is this over every activity. What
// it keeps: each API call's thread, start, correlation, class and index (40 bytes), each
// kernel's correlation, each correlated call's (correlation, index) to find the repeated
// records, and the step, data-load and timed-window ranges.
class StepApiCountsAccumulator {
  public:
    // `lanes` and `strings` must outlive the accumulator.
    StepApiCountsAccumulator(std::span<const Lane> lanes, const StringTable& strings,
                             StepApiCountOptions options = {});
    // `index`: the activity's index in the trace (StepApiCounts::range_index).
    void add(const Activity& a, std::size_t index);
    // Whether a runtime API record has passed (has_runtime_api_records).
    [[nodiscard]] bool runtime_api_records() const { return runtime_records_; }
    [[nodiscard]] std::vector<StepApiCounts> finish() &&;

    using ThreadKey = std::pair<std::int64_t, std::int64_t>;  // (process, thread)
    struct ApiCall {
        std::int64_t start_ns = 0;
        std::uint64_t correlation = 0;
        bool runtime = false;
        RuntimeCallClass call_class = RuntimeCallClass::other;
        std::size_t index = 0;
    };
    struct Range {
        std::int64_t start_ns = 0;
        std::int64_t end_ns = 0;
    };

  private:
    struct StepRange {
        std::size_t index = 0;
        ThreadKey thread;
        std::int64_t start_ns = 0;
        std::int64_t end_ns = 0;
    };
    std::span<const Lane> lanes_;
    const StringTable* strings_;
    StepApiCountOptions options_;
    std::vector<std::optional<RuntimeCallClass>> class_of_name_;
    bool runtime_records_ = false;
    std::vector<StepRange> steps_;
    std::map<ThreadKey, std::vector<Range>> data_ranges_;
    std::map<ThreadKey, std::vector<Range>> window_ranges_;
    std::map<ThreadKey, std::vector<ApiCall>> calls_by_thread_;
    std::vector<std::uint64_t> kernel_correlations_;
    std::vector<std::pair<std::uint64_t, std::size_t>> api_correlations_;
};

// Each count over a run of steps: median, least and most.
struct CountSpread {
    double median = 0.0;
    std::int64_t min = 0;
    std::int64_t max = 0;
};
struct ApiCallSpread {
    std::size_t steps = 0;
    CountSpread allocations, frees, synchronizations, memcpys, runtime_calls, kernel_launches;
};
// Which calls of a step a spread is over.
enum class StepPart { own, data, window };
// Over steps[skip_first:] (warm-up steps left out), of the step's own calls, its
// data-load calls or its timed window's calls. All zero without steps.
ApiCallSpread spread_of(const std::vector<StepApiCounts>& steps, std::size_t skip_first,
                        StepPart part);

// Whether the trace holds runtime API records at all (so that zero counts mean zero).
bool has_runtime_api_records(const Trace& trace);

}  // namespace trainscope::profiler
