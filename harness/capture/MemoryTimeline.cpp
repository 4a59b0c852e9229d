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
    const std::size_t c = workloads::tensor_class_index(tensor_class);
    live_[c] = class_bytes;
    try {
        pending_.push_back({now - base_ns_, total_bytes, live_});
    } catch (...) {
        ++lost_samples_;  // a listener never throws into the engine
    }
}

void MemoryTimeline::keep(const State& state) {
    for (std::size_t c = 0; c < workloads::kTensorClassCount; ++c) {
        // A class's series starts where it first holds bytes; a value repeats only where it
        // changed.
        if (samples_[c].empty() ? state.bytes[c] == 0 : kept_[c] == state.bytes[c])
            continue;
        samples_[c].push_back({state.t_ns, static_cast<double>(state.bytes[c])});
        kept_[c] = state.bytes[c];
    }
}

void MemoryTimeline::step_ended() noexcept {
    if (pending_.empty())
        return;
    try {
        if (pending_.size() <= kIntervalsPerStep + 1) {
            for (const State& state : pending_)
                keep(state);
        } else {
            const std::int64_t begin = pending_.front().t_ns;
            const std::int64_t span = pending_.back().t_ns - begin + 1;
            std::size_t i = 0;
            for (std::size_t k = 0; k < kIntervalsPerStep && i < pending_.size(); ++k) {
                const auto k64 = static_cast<std::int64_t>(k + 1);
                const std::int64_t end =
                    begin + span * k64 / static_cast<std::int64_t>(kIntervalsPerStep);
                std::size_t largest = i;
                for (; i < pending_.size() && pending_[i].t_ns < end; ++i) {
                    if (pending_[i].total > pending_[largest].total)
                        largest = i;
                }
                if (largest < i)  // the stretch held changes
                    keep(pending_[largest]);
            }
            keep(pending_.back());
        }
    } catch (...) {
        ++lost_samples_;
    }
    pending_.clear();
}

profiler::Trace MemoryTimeline::trace() {
    step_ended();
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
