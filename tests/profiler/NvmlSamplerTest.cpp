#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "profiler/nvml/NvmlSampler.hpp"

namespace trainscope::profiler {
namespace {

TEST(NvmlSampler, AbsentLibraryIsAWarningAndNoCounters) {
    NvmlSamplerOptions options;
    options.library = "libtrainscope-no-such-nvml.so.1";
    NvmlSampler sampler(options);
    EXPECT_FALSE(sampler.available());
    EXPECT_NE(sampler.warning().find("libtrainscope-no-such-nvml.so.1"), std::string::npos)
        << sampler.warning();
    sampler.start();
    EXPECT_TRUE(sampler.stop().empty());
}

TEST(NvmlSampler, LibraryWithoutNvmlSymbolsIsRejected) {
    NvmlSamplerOptions options;
    options.library = "libz.so.1";  // loads, but is not NVML
    NvmlSampler sampler(options);
    EXPECT_FALSE(sampler.available());
    EXPECT_NE(sampler.warning().find("nvmlInit_v2"), std::string::npos) << sampler.warning();
}

// The driver's own NVML: on a machine without it this is the "absent" path and the test
// skips after checking that; with it, the sampler must really sample.
TEST(NvmlSampler, DefaultLibrarySamplesTheDriversDevicesOrSaysWhyNot) {
    NvmlSamplerOptions options;
    options.period = std::chrono::milliseconds(5);
    NvmlSampler sampler(options);
    sampler.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    const auto series = sampler.stop();
    if (!sampler.available()) {
        EXPECT_TRUE(series.empty());
        EXPECT_FALSE(sampler.warning().empty());
        GTEST_SKIP() << "NVML is not usable here, so only the absent path was checked: "
                     << sampler.warning();
    }
    const std::set<std::string> known = {"gpu_utilization",
                                         "memory_utilization",
                                         "memory_used",
                                         "power",
                                         "sm_clock",
                                         "memory_clock",
                                         "temperature",
                                         "energy",
                                         "clocks_throttle_reasons"};
    ASSERT_FALSE(series.empty()) << "NVML loaded but no metric of any device was sampled";
    std::map<std::pair<std::int32_t, std::string>, const CounterSeries*> by_key;
    for (const CounterSeries& s : series) {
        EXPECT_EQ(known.count(s.name), 1u) << s.name;
        EXPECT_FALSE(s.unit.empty()) << s.name;
        EXPECT_GE(s.device, 0) << s.name;
        EXPECT_TRUE(by_key.emplace(std::make_pair(s.device, s.name), &s).second)
            << "two series for device " << s.device << " " << s.name;
        // The start and stop samples bracket the capture, the periodic ones come between.
        EXPECT_GE(s.samples.size(), 3u) << s.name;
        for (std::size_t i = 1; i < s.samples.size(); ++i) {
            EXPECT_GT(s.samples[i].t_ns, s.samples[i - 1].t_ns) << s.name;
        }
        for (const auto& sample : s.samples) {
            EXPECT_TRUE(std::isfinite(sample.value)) << s.name;
            EXPECT_GE(sample.value, 0.0) << s.name;
            if (s.unit == "%") {
                EXPECT_LE(sample.value, 100.0) << s.name;
            }
        }
    }
    // Every NVIDIA GPU reports its memory in use (the context of this very driver, at
    // least) and its SM clock.
    const auto memory = by_key.find({0, "memory_used"});
    ASSERT_NE(memory, by_key.end()) << "device 0 has no memory_used series";
    EXPECT_GT(memory->second->samples.front().value, 0.0);
    const auto clock = by_key.find({0, "sm_clock"});
    ASSERT_NE(clock, by_key.end()) << "device 0 has no sm_clock series";
    EXPECT_GT(clock->second->samples.back().value, 0.0);
}

TEST(NvmlSampler, SamplesEveryMetricOfEveryDeviceWithUnits) {
    NvmlSamplerOptions options;
    options.library = TRAINSCOPE_FAKE_NVML_PATH;
    options.period = std::chrono::milliseconds(2);
    NvmlSampler sampler(options);
    ASSERT_TRUE(sampler.available()) << sampler.warning();
    sampler.start();
    // Long enough for a periodic sample between the start's and the stop's, even loaded.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto series = sampler.stop();
    std::map<std::pair<std::int32_t, std::string>, const CounterSeries*> by_key;
    for (const auto& s : series)
        by_key[{s.device, s.name}] = &s;
    auto first = [&](std::int32_t device, const std::string& name) {
        return by_key.at({device, name})->samples.front().value;
    };
    EXPECT_EQ(series.size(), 17u);  // 9 metrics on device 0, power missing on device 1
    ASSERT_EQ(by_key.count({0, "power"}), 1u);
    EXPECT_EQ(by_key.count({1, "power"}), 0u);
    const CounterSeries& power = *by_key.at({0, "power"});
    EXPECT_EQ(power.unit, "W");
    EXPECT_GE(power.samples.size(), 3u);
    EXPECT_DOUBLE_EQ(power.samples.front().value, 250.5);
    EXPECT_DOUBLE_EQ(first(1, "gpu_utilization"), 42.0);
    EXPECT_DOUBLE_EQ(first(0, "memory_used"), static_cast<double>(1ull << 30));
    EXPECT_DOUBLE_EQ(first(0, "sm_clock"), 1410.0);
    EXPECT_DOUBLE_EQ(first(0, "energy"), 123.456);
    // The new entry point (8), not the deprecated one (4).
    EXPECT_DOUBLE_EQ(first(0, "clocks_throttle_reasons"), 8.0);
    for (std::size_t i = 1; i < power.samples.size(); ++i) {
        EXPECT_GT(power.samples[i].t_ns, power.samples[i - 1].t_ns);
    }
}

TEST(NvmlSampler, DefaultPeriodIs100Milliseconds) {
    EXPECT_EQ(NvmlSamplerOptions{}.period, std::chrono::milliseconds(100));
}

TEST(NvmlSampler, SamplesOnlyTheDeviceWithTheCudaBusIdLabelledWithTheCudaOrdinal) {
    NvmlSamplerOptions options;
    options.library = TRAINSCOPE_FAKE_NVML_PATH;
    options.period = std::chrono::seconds(10);  // only the start and stop samples
    options.pci_bus_id = "0000:01:00.0";        // as cudaDeviceGetPCIBusId writes it
    options.series_device = 3;                  // the CUDA ordinal
    NvmlSampler sampler(options);
    ASSERT_TRUE(sampler.available()) << sampler.warning();
    EXPECT_EQ(sampler.metadata().at("nvml_device"), "PCI bus id 00000000:01:00.0");
    EXPECT_EQ(sampler.metadata().count("nvml_missing_metrics"), 0u);
    sampler.start();
    const auto series = sampler.stop();
    // NVML index 1 (no power), not index 0: the lookup went by bus id.
    EXPECT_EQ(series.size(), 8u);
    for (const auto& s : series) {
        EXPECT_EQ(s.device, 3) << s.name;
        EXPECT_NE(s.name, "power");
        // One sample when the thread starts and one when stop() asks: they bracket it.
        EXPECT_EQ(s.samples.size(), 2u) << s.name;
    }
}

TEST(NvmlSampler, UnknownBusIdRecordsNoTelemetryAndSaysWhy) {
    NvmlSamplerOptions options;
    options.library = TRAINSCOPE_FAKE_NVML_PATH;
    options.pci_bus_id = "0000:65:00.0";
    NvmlSampler sampler(options);
    EXPECT_FALSE(sampler.available());
    const std::string& why = sampler.metadata().at("nvml_device");
    EXPECT_EQ(
        why.rfind("not found for PCI bus id '0000:65:00.0' (asked NVML for 00000000:65:00.0)", 0),
        0u)
        << why;
    EXPECT_NE(sampler.warning().find(why), std::string::npos) << sampler.warning();
    sampler.start();
    EXPECT_TRUE(sampler.stop().empty());
}

}  // namespace
}  // namespace trainscope::profiler
