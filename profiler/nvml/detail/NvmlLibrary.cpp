#include "profiler/nvml/detail/NvmlLibrary.hpp"

#include <dlfcn.h>

#include <cstdio>

namespace trainscope::profiler::detail {

void DlCloser::operator()(void* handle) const noexcept {
    if (handle != nullptr)
        dlclose(handle);
}

namespace {

template <typename Function>
bool resolve(void* handle, const char* symbol, Function& out, std::string& why_not) {
    void* address = dlsym(handle, symbol);
    if (address == nullptr) {
        why_not = std::string("symbol ") + symbol + " not found";
        return false;
    }
    // dlsym returns object pointers; POSIX guarantees the conversion to a function
    // pointer works, and this is the way to spell it without a C-style cast.
    out = reinterpret_cast<Function>(address);
    return true;
}

}  // namespace

std::unique_ptr<NvmlLibrary> NvmlLibrary::open(const std::string& library, std::string& why_not) {
    std::unique_ptr<void, DlCloser> handle(dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL));
    if (!handle) {
        const char* error = dlerror();
        why_not =
            "cannot load " + library + ": " + (error != nullptr ? error : "unknown dlopen error");
        return nullptr;
    }
    NvmlFunctions f{};
    void* h = handle.get();
    if (!resolve(h, "nvmlInit_v2", f.init, why_not) ||
        !resolve(h, "nvmlShutdown", f.shutdown, why_not) ||
        !resolve(h, "nvmlErrorString", f.error_string, why_not) ||
        !resolve(h, "nvmlDeviceGetCount_v2", f.device_count, why_not) ||
        !resolve(h, "nvmlDeviceGetHandleByIndex_v2", f.handle_by_index, why_not) ||
        !resolve(h, "nvmlDeviceGetUtilizationRates", f.utilization, why_not) ||
        !resolve(h, "nvmlDeviceGetMemoryInfo", f.memory, why_not) ||
        !resolve(h, "nvmlDeviceGetPowerUsage", f.power_mw, why_not) ||
        !resolve(h, "nvmlDeviceGetClockInfo", f.clock_mhz, why_not) ||
        !resolve(h, "nvmlDeviceGetTemperature", f.temperature_c, why_not) ||
        !resolve(h, "nvmlDeviceGetTotalEnergyConsumption", f.energy_mj, why_not) ||
        !resolve(h, "nvmlDeviceGetCurrentClocksThrottleReasons", f.throttle_reasons, why_not)) {
        why_not = library + ": " + why_not;
        return nullptr;
    }
    const NvmlReturn status = f.init();
    if (status != kNvmlSuccess) {
        const char* text = f.error_string(status);
        why_not = "nvmlInit_v2 failed: " + std::string(text != nullptr ? text : "unknown error") +
                  " (NVML code " + std::to_string(status) + ")";
        return nullptr;
    }
    return std::unique_ptr<NvmlLibrary>(new NvmlLibrary(std::move(handle), f));
}

NvmlLibrary::NvmlLibrary(std::unique_ptr<void, DlCloser> handle, NvmlFunctions functions)
    : handle_(std::move(handle)), functions_(functions) {}

NvmlLibrary::~NvmlLibrary() {
    const NvmlReturn status = functions_.shutdown();
    if (status != kNvmlSuccess) {
        std::fprintf(stderr, "trainscope profiler: nvmlShutdown failed: %s\n",
                     error_text(status).c_str());
    }
}

std::string NvmlLibrary::error_text(NvmlReturn status) const {
    const char* text = functions_.error_string(status);
    return std::string(text != nullptr ? text : "unknown error") + " (NVML code " +
           std::to_string(status) + ")";
}

}  // namespace trainscope::profiler::detail
