#include "profiler/nvml/NvmlSampler.hpp"

#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "profiler/capture/HostClock.hpp"
#include "profiler/nvml/detail/NvmlLibrary.hpp"

namespace trainscope::profiler {

namespace {

enum Metric : std::size_t {
    kGpuUtilization,
    kMemoryUtilization,
    kMemoryUsed,
    kPower,
    kSmClock,
    kMemoryClock,
    kTemperature,
    kEnergy,
    kThrottleReasons,
    kMetricCount,
};

struct MetricName {
    const char* name;
    const char* unit;
};
constexpr MetricName kMetricNames[kMetricCount] = {
    {"gpu_utilization", "%"},
    {"memory_utilization", "%"},
    {"memory_used", "bytes"},
    {"power", "W"},
    {"sm_clock", "MHz"},
    {"memory_clock", "MHz"},
    {"temperature", "C"},
    {"energy", "J"},
    {"clocks_throttle_reasons", "bitmask"},
};

}  // namespace

struct NvmlSampler::State {
    std::unique_ptr<detail::NvmlLibrary> library;
    std::vector<detail::NvmlDevice> devices;
    std::vector<CounterSeries> series;  // devices.size() * kMetricCount, written by the thread only
    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;
    std::thread thread;

    void sample_once(std::int64_t t_ns) {
        const detail::NvmlFunctions& f = library->functions();
        for (std::size_t d = 0; d < devices.size(); ++d) {
            CounterSeries* s = &series[d * kMetricCount];
            auto add = [&](Metric m, double value) { s[m].samples.push_back({t_ns, value}); };
            detail::NvmlUtilization utilization{};
            if (f.utilization(devices[d], &utilization) == detail::kNvmlSuccess) {
                add(kGpuUtilization, utilization.gpu);
                add(kMemoryUtilization, utilization.memory);
            }
            detail::NvmlMemory memory{};
            if (f.memory(devices[d], &memory) == detail::kNvmlSuccess)
                add(kMemoryUsed, static_cast<double>(memory.used));
            unsigned int value = 0;
            if (f.power_mw(devices[d], &value) == detail::kNvmlSuccess)
                add(kPower, value / 1000.0);
            if (f.clock_mhz(devices[d], detail::kNvmlClockSm, &value) == detail::kNvmlSuccess)
                add(kSmClock, value);
            if (f.clock_mhz(devices[d], detail::kNvmlClockMemory, &value) == detail::kNvmlSuccess) {
                add(kMemoryClock, value);
            }
            if (f.temperature_c(devices[d], detail::kNvmlTemperatureGpu, &value) ==
                detail::kNvmlSuccess) {
                add(kTemperature, value);
            }
            unsigned long long wide = 0;
            if (f.energy_mj(devices[d], &wide) == detail::kNvmlSuccess)
                add(kEnergy, static_cast<double>(wide) / 1000.0);
            if (f.throttle_reasons(devices[d], &wide) == detail::kNvmlSuccess) {
                add(kThrottleReasons, static_cast<double>(wide));
            }
        }
    }
};

NvmlSampler::NvmlSampler(NvmlSamplerOptions options) : options_(std::move(options)) {
    std::string why_not;
    auto library = detail::NvmlLibrary::open(options_.library, why_not);
    if (!library) {
        warning_ = "NVML unavailable, no GPU counters will be recorded: " + why_not;
        std::fprintf(stderr, "trainscope profiler: warning: %s\n", warning_.c_str());
        return;
    }
    auto state = std::make_unique<State>();
    const detail::NvmlFunctions& f = library->functions();
    unsigned int count = 0;
    if (const auto status = f.device_count(&count); status != detail::kNvmlSuccess) {
        warning_ = "nvmlDeviceGetCount_v2 failed: " + library->error_text(status);
        std::fprintf(stderr, "trainscope profiler: warning: %s\n", warning_.c_str());
        return;
    }
    for (unsigned int i = 0; i < count; ++i) {
        detail::NvmlDevice device = nullptr;
        if (f.handle_by_index(i, &device) != detail::kNvmlSuccess)
            continue;
        state->devices.push_back(device);
        for (const MetricName& m : kMetricNames) {
            state->series.push_back(
                CounterSeries{m.name, m.unit, static_cast<std::int32_t>(i), {}});
        }
    }
    state->library = std::move(library);
    state_ = std::move(state);
}

NvmlSampler::~NvmlSampler() {
    (void)stop();
}

bool NvmlSampler::available() const {
    return state_ != nullptr;
}

void NvmlSampler::start() {
    if (!state_ || state_->thread.joinable())
        return;
    state_->stopping = false;
    State* state = state_.get();
    const auto period = options_.period;
    const std::int64_t base_ns = options_.trace_base_ns;
    state_->thread = std::thread([state, period, base_ns] {
        std::unique_lock lock(state->mutex);
        while (!state->stopping) {
            lock.unlock();
            state->sample_once(host_clock_now_ns() - base_ns);
            lock.lock();
            state->wake.wait_for(lock, period, [state] { return state->stopping; });
        }
    });
}

std::vector<CounterSeries> NvmlSampler::stop() {
    if (!state_)
        return {};
    if (state_->thread.joinable()) {
        {
            const std::lock_guard lock(state_->mutex);
            state_->stopping = true;
        }
        state_->wake.notify_all();
        state_->thread.join();
    }
    std::vector<CounterSeries> result;
    for (CounterSeries& s : state_->series) {
        if (!s.samples.empty())
            result.push_back(std::move(s));
        s.samples.clear();
    }
    return result;
}

}  // namespace trainscope::profiler
