#include "harness/capture/MemoryTimeline.hpp"

#include <string>

#include "reports/memory/MemorySeries.hpp"

namespace trainscope::harness {

MemoryTimeline::MemoryTimeline(Clock clock) : clock_(std::move(clock)), base_ns_(clock_()) {}

void MemoryTimeline::on_memory_change(workloads::TensorClass tensor_class, std::int64_t class_bytes,
                                      std::int64_t total_bytes) noexcept {
    const std::int64_t now = clock_();
    if (total_bytes > peak_bytes_) {
        peak_bytes_ = total_bytes;
        peak_ns_ = now;
    }
    try {
        samples_[workloads::tensor_class_index(tensor_class)].push_back(
            {now - base_ns_, static_cast<double>(class_bytes)});
    } catch (...) {
        ++lost_samples_;  // a listener never throws into the engine
    }
}

profiler::Trace MemoryTimeline::trace() const {
    profiler::Trace trace;
    trace.base_ns = base_ns_;
    for (const workloads::TensorClass tensor_class : workloads::kTensorClasses) {
        const auto& samples = samples_[workloads::tensor_class_index(tensor_class)];
        if (samples.empty())
            continue;
        profiler::CounterSeries series;
        series.name = reports::memory_series_name(workloads::tensor_class_name(tensor_class));
        series.unit = "bytes";
        series.samples = samples;
        trace.counters.push_back(std::move(series));
    }
    return trace;
}

}  // namespace trainscope::harness
