#include <gtest/gtest.h>

#include <set>
#include <string>

#include "profiler/nvml/detail/NvmlLibrary.hpp"

namespace trainscope::profiler::detail {
namespace {

// A stand-in for dlsym: a non-null address for every name in `present`. The addresses
// are never called; the policy only looks at which names resolve.
class FakeSymbols {
  public:
    explicit FakeSymbols(std::set<std::string> present) : present_(std::move(present)) {}
    void* operator()(const char* name) const {
        return present_.count(name) != 0 ? const_cast<char*>(&storage_) : nullptr;
    }
    void remove(const std::string& name) { present_.erase(name); }

  private:
    std::set<std::string> present_;
    char storage_ = 0;
};

std::set<std::string> all_symbols() {
    return {"nvmlInit_v2",
            "nvmlShutdown",
            "nvmlErrorString",
            "nvmlDeviceGetCount_v2",
            "nvmlDeviceGetHandleByIndex_v2",
            "nvmlDeviceGetHandleByPciBusId_v2",
            "nvmlDeviceGetUtilizationRates",
            "nvmlDeviceGetMemoryInfo",
            "nvmlDeviceGetPowerUsage",
            "nvmlDeviceGetClockInfo",
            "nvmlDeviceGetTemperature",
            "nvmlDeviceGetTotalEnergyConsumption",
            "nvmlDeviceGetCurrentClocksEventReasons",
            "nvmlDeviceGetCurrentClocksThrottleReasons"};
}

NvmlResolution resolve(const FakeSymbols& symbols, NvmlFunctions& f) {
    return resolve_nvml_functions([&symbols](const char* name) { return symbols(name); }, f);
}

TEST(NvmlSymbolPolicy, ACompleteLibraryResolvesEverythingAndPrefersTheNewEventReasons) {
    FakeSymbols symbols(all_symbols());
    NvmlFunctions f{};
    const NvmlResolution r = resolve(symbols, f);
    EXPECT_TRUE(r.ok) << r.why_not;
    EXPECT_TRUE(r.missing_metrics.empty());
    EXPECT_EQ(r.clocks_event_reasons_symbol, "nvmlDeviceGetCurrentClocksEventReasons");
    EXPECT_NE(f.handle_by_pci_bus_id, nullptr);
    EXPECT_NE(f.power_mw, nullptr);
    EXPECT_NE(f.clocks_event_reasons, nullptr);
}

TEST(NvmlSymbolPolicy, AnOlderDriverFallsBackToTheDeprecatedThrottleReasons) {
    FakeSymbols symbols(all_symbols());
    symbols.remove("nvmlDeviceGetCurrentClocksEventReasons");
    NvmlFunctions f{};
    const NvmlResolution r = resolve(symbols, f);
    EXPECT_TRUE(r.ok);
    EXPECT_TRUE(r.missing_metrics.empty());
    EXPECT_EQ(r.clocks_event_reasons_symbol, "nvmlDeviceGetCurrentClocksThrottleReasons");
    EXPECT_NE(f.clocks_event_reasons, nullptr);
}

TEST(NvmlSymbolPolicy, AMissingOptionalSymbolDropsOnlyItsMetric) {
    FakeSymbols symbols(all_symbols());
    symbols.remove("nvmlDeviceGetCurrentClocksEventReasons");
    symbols.remove("nvmlDeviceGetCurrentClocksThrottleReasons");
    symbols.remove("nvmlDeviceGetTotalEnergyConsumption");
    NvmlFunctions f{};
    const NvmlResolution r = resolve(symbols, f);
    EXPECT_TRUE(r.ok);
    ASSERT_EQ(r.missing_metrics.size(), 2u);
    EXPECT_EQ(r.missing_metrics[0], "energy (nvmlDeviceGetTotalEnergyConsumption)");
    EXPECT_EQ(r.missing_metrics[1].rfind("clocks_throttle_reasons (", 0), 0u);
    EXPECT_EQ(f.energy_mj, nullptr);
    EXPECT_EQ(f.clocks_event_reasons, nullptr);
    EXPECT_NE(f.power_mw, nullptr);
    EXPECT_TRUE(r.clocks_event_reasons_symbol.empty());
}

TEST(NvmlSymbolPolicy, EveryCoreSymbolIsRequired) {
    for (const char* core :
         {"nvmlInit_v2", "nvmlShutdown", "nvmlErrorString", "nvmlDeviceGetCount_v2",
          "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByPciBusId_v2"}) {
        FakeSymbols symbols(all_symbols());
        symbols.remove(core);
        NvmlFunctions f{};
        const NvmlResolution r = resolve(symbols, f);
        EXPECT_FALSE(r.ok) << core;
        EXPECT_EQ(r.why_not, std::string("symbol ") + core + " not found");
        EXPECT_EQ(f.init, nullptr) << "a failed resolution leaves no half-filled table";
    }
}

}  // namespace
}  // namespace trainscope::profiler::detail
