#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "profiler/trace/Counter.hpp"

namespace trainscope::profiler {

namespace detail {
class NvmlLibrary;
}

struct NvmlSamplerOptions {
    std::chrono::milliseconds period{10};
    std::string library = "libnvidia-ml.so.1";  // loaded with dlopen at run time
    std::int64_t trace_base_ns = 0;             // sample times are host_clock_now_ns() - this
};

// Samples every GPU through NVML on a background thread: utilization (gpu, memory, %),
// memory used (bytes), power (W), SM and memory clocks (MHz), temperature (C), total
// energy (J) and the clocks-throttle-reason bit mask. NVML is optional: when the
// library is absent or fails to initialise, available() is false, warning() says why,
// and stop() returns no counters; nothing throws. A metric a device does not support
// is skipped for that device.
class NvmlSampler {
  public:
    explicit NvmlSampler(NvmlSamplerOptions options = {});
    ~NvmlSampler();
    NvmlSampler(const NvmlSampler&) = delete;
    NvmlSampler& operator=(const NvmlSampler&) = delete;

    [[nodiscard]] bool available() const;
    [[nodiscard]] const std::string& warning() const { return warning_; }

    // Starts the sampling thread (no-op when unavailable or already started).
    void start();
    // Stops the thread and returns one series per (device, metric) with samples.
    std::vector<CounterSeries> stop();

  private:
    struct State;
    NvmlSamplerOptions options_;
    std::string warning_;
    std::unique_ptr<State> state_;
};

}  // namespace trainscope::profiler
