#include "profiler/nvml/NvmlSampler.hpp"

#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "profiler/capture/HostClock.hpp"
#include "profiler/nvml/NvmlError.hpp"
#include "profiler/nvml/detail/NvmlDeviceChoice.hpp"
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
            const detail::NvmlDevice device = devices[d];
            detail::NvmlUtilization utilization{};
            if (f.utilization != nullptr &&
                f.utilization(device, &utilization) == detail::kNvmlSuccess) {
                add(kGpuUtilization, utilization.gpu);
                add(kMemoryUtilization, utilization.memory);
            }
            detail::NvmlMemory memory{};
            if (f.memory != nullptr && f.memory(device, &memory) == detail::kNvmlSuccess)
                add(kMemoryUsed, static_cast<double>(memory.used));
            unsigned int value = 0;
            if (f.power_mw != nullptr && f.power_mw(device, &value) == detail::kNvmlSuccess)
                add(kPower, value / 1000.0);
            if (f.clock_mhz != nullptr) {
                if (f.clock_mhz(device, detail::kNvmlClockSm, &value) == detail::kNvmlSuccess)
                    add(kSmClock, value);
                if (f.clock_mhz(device, detail::kNvmlClockMemory, &value) == detail::kNvmlSuccess)
                    add(kMemoryClock, value);
            }
            if (f.temperature_c != nullptr && f.temperature_c(device, detail::kNvmlTemperatureGpu,
                                                              &value) == detail::kNvmlSuccess) {
                add(kTemperature, value);
            }
            unsigned long long wide = 0;
            if (f.energy_mj != nullptr && f.energy_mj(device, &wide) == detail::kNvmlSuccess)
                add(kEnergy, static_cast<double>(wide) / 1000.0);
            if (f.clocks_event_reasons != nullptr &&
                f.clocks_event_reasons(device, &wide) == detail::kNvmlSuccess) {
                add(kThrottleReasons, static_cast<double>(wide));
            }
        }
    }

    void add_device(detail::NvmlDevice device, std::int32_t label) {
        devices.push_back(device);
        for (const MetricName& m : kMetricNames)
            series.push_back(CounterSeries{m.name, m.unit, label, {}});
    }
};

NvmlSampler::NvmlSampler(NvmlSamplerOptions options) : options_(std::move(options)) {
    const auto fail = [this](std::string why) {
        warning_ = std::move(why);
        std::fprintf(stderr, "trainscope profiler: warning: %s\n", warning_.c_str());
    };
    std::string why_not;
    auto library = detail::NvmlLibrary::open(options_.library, why_not);
    if (!library) {
        fail("NVML unavailable, no GPU counters will be recorded: " + why_not);
        return;
    }
    if (!library->missing_metrics().empty()) {
        std::string missing;
        for (const std::string& m : library->missing_metrics())
            missing += (missing.empty() ? "" : "; ") + m;
        metadata_["nvml_missing_metrics"] = missing;
    }
    auto state = std::make_unique<State>();
    const detail::NvmlFunctions& f = library->functions();
    if (!options_.pci_bus_id.empty()) {
        const detail::NvmlDeviceChoice choice = detail::choose_nvml_device(f, options_.pci_bus_id);
        metadata_["nvml_device"] = choice.status;
        if (choice.device == nullptr) {
            fail("NVML device " + choice.status);
            return;
        }
        state->add_device(choice.device, options_.series_device);
    } else {
        unsigned int count = 0;
        try {
            TS_NVML_CHECK(f.device_count(&count));
        } catch (const NvmlError& error) {
            fail(error.what());
            return;
        }
        for (unsigned int i = 0; i < count; ++i) {
            detail::NvmlDevice device = nullptr;
            if (f.handle_by_index(i, &device) == detail::kNvmlSuccess)
                state->add_device(device, static_cast<std::int32_t>(i));
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
    // One sample here, in the caller's thread, one per period, and one after stop() asked:
    // the samples bracket everything between start() and stop().
    state->sample_once(host_clock_now_ns() - base_ns);
    state_->thread = std::thread([state, period, base_ns] {
        std::unique_lock lock(state->mutex);
        for (;;) {
            state->wake.wait_for(lock, period, [state] { return state->stopping; });
            const bool last = state->stopping;
            lock.unlock();
            state->sample_once(host_clock_now_ns() - base_ns);
            lock.lock();
            if (last)
                break;
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
