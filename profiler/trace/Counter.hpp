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
    // The rank of the distributed job whose series it is; 0 in a one-process trace. Each
    // rank has its own memory/<class> series (device -1), which share their names.
    std::int32_t rank = 0;
};

}  // namespace trainscope::profiler
