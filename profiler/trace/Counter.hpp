#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace trainscope::profiler {

struct CounterSample {
    std::int64_t t_ns = 0;  // on the trace clock, relative to Trace::base_ns
    double value = 0.0;
};

// A time series such as NVML GPU utilization (unit "%"), memory used ("bytes"),
// power ("W") or SM clock ("MHz").
struct CounterSeries {
    std::string name;  // e.g. "gpu_utilization"
    std::string unit;
    std::int32_t device = -1;
    std::vector<CounterSample> samples;
};

}  // namespace trainscope::profiler
