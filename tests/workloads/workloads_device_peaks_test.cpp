// The roofs: the GPU table against NVIDIA's published peaks, the CPU formula from
// /proc/cpuinfo text, and the triad measuring something plausible quickly.
#include <gtest/gtest.h>

#include "workloads/devices/DevicePeaks.hpp"

namespace trainscope::workloads {
namespace {

CudaDeviceInfo a100() {
    CudaDeviceInfo d;
    d.name = "A100-SXM4-40GB";
    d.compute_major = 8;
    d.compute_minor = 0;
    d.sm_count = 108;
    d.sm_clock_khz = 1'410'000;
    d.memory_clock_khz = 1'215'000;
    d.memory_bus_width_bits = 5120;
    return d;
}

TEST(DevicePeaks, A100MatchesTheDatasheet) {
    // 19.5 TFLOP/s fp32, 156 tf32, 312 fp16/bf16 (tensor cores), 19.5 fp64 (DMMA);
    // 1555 GB/s.
    EXPECT_NEAR(gpu_peaks(a100(), Precision::fp32).flops.value, 19.5e12, 0.1e12);
    EXPECT_NEAR(gpu_peaks(a100(), Precision::tf32).flops.value, 156e12, 1e12);
    EXPECT_NEAR(gpu_peaks(a100(), Precision::fp16).flops.value, 312e12, 1e12);
    EXPECT_NEAR(gpu_peaks(a100(), Precision::bf16).flops.value, 312e12, 1e12);
    EXPECT_NEAR(gpu_peaks(a100(), Precision::fp64).flops.value, 19.5e12, 0.1e12);
    EXPECT_NEAR(gpu_peaks(a100(), Precision::fp32).bandwidth.value, 1555e9, 1e9);
    const std::string source = gpu_peaks(a100(), Precision::tf32).flops.source;
    EXPECT_NE(source.find("sm_80 tf32 tensor cores 1024 FLOP/clock/SM x 108 SMs x 1410 MHz"),
              std::string::npos)
        << source;
}

TEST(DevicePeaks, TableCoversEveryArchitectureWithAndWithoutTensorCores) {
    // V100 125 TFLOP/s fp16 tensor cores on 80 SMs at 1530 MHz; H100 SXM 989 at 132 x 1830.
    EXPECT_DOUBLE_EQ(gpu_flops_per_clock_per_sm(7, 0, Precision::fp16, true), 1024.0);
    EXPECT_DOUBLE_EQ(gpu_flops_per_clock_per_sm(7, 0, Precision::fp32, false), 128.0);
    EXPECT_DOUBLE_EQ(gpu_flops_per_clock_per_sm(7, 5, Precision::fp64, false), 4.0);
    EXPECT_DOUBLE_EQ(gpu_flops_per_clock_per_sm(7, 0, Precision::tf32, true), 0.0);
    EXPECT_DOUBLE_EQ(gpu_flops_per_clock_per_sm(8, 6, Precision::fp32, false), 256.0);
    EXPECT_DOUBLE_EQ(gpu_flops_per_clock_per_sm(9, 0, Precision::fp16, true), 4096.0);
    EXPECT_DOUBLE_EQ(gpu_flops_per_clock_per_sm(9, 0, Precision::fp32, false), 256.0);
    EXPECT_DOUBLE_EQ(gpu_flops_per_clock_per_sm(10, 0, Precision::bf16, true), 8192.0);
    // Newer than the table: its newest row.
    EXPECT_DOUBLE_EQ(gpu_flops_per_clock_per_sm(12, 0, Precision::fp16, true), 8192.0);
    // tf32 on a V100 runs on the FMA pipes: the fp32 peak, not zero.
    CudaDeviceInfo v100 = a100();
    v100.compute_major = 7;
    v100.sm_count = 80;
    v100.sm_clock_khz = 1'530'000;
    EXPECT_NEAR(gpu_peaks(v100, Precision::tf32).flops.value, 15.7e12, 0.1e12);
}

constexpr const char* kTwoCoreAvx512 =
    "processor\t: 0\nphysical id\t: 0\ncore id\t\t: 0\ncpu MHz\t\t: 2300.000\n"
    "flags\t\t: fpu sse2 avx fma avx2 avx512f\n\n"
    "processor\t: 1\nphysical id\t: 0\ncore id\t\t: 1\ncpu MHz\t\t: 2300.000\n"
    "flags\t\t: fpu sse2 avx fma avx2 avx512f\n\n"
    "processor\t: 2\nphysical id\t: 0\ncore id\t\t: 0\ncpu MHz\t\t: 2300.000\n"
    "flags\t\t: fpu sse2 avx fma avx2 avx512f\n";

TEST(DevicePeaks, CpuIsCoresTimesClockTimesLanesTimesTwoForFmaTimesTwoPipes) {
    // Three hardware threads on two cores: two cores count.
    const CpuFacts facts = parse_cpu_facts(kTwoCoreAvx512, "", 3);
    EXPECT_EQ(facts.cores, 2);
    EXPECT_EQ(facts.simd_bits, 512);
    EXPECT_TRUE(facts.fma);
    EXPECT_DOUBLE_EQ(facts.clock_hz, 2.3e9);
    EXPECT_DOUBLE_EQ(cpu_peaks(facts, Precision::fp32, 1e10).flops.value, 2 * 2.3e9 * 16 * 2 * 2);
    EXPECT_DOUBLE_EQ(cpu_peaks(facts, Precision::fp64, 1e10).flops.value, 2 * 2.3e9 * 8 * 2 * 2);
    // The CPU backend emulates the 16-bit precisions in fp32.
    EXPECT_DOUBLE_EQ(cpu_peaks(facts, Precision::bf16, 1e10).flops.value, 2 * 2.3e9 * 16 * 2 * 2);
    // cpufreq's maximum wins over the current clock; only the usable CPUs count.
    const CpuFacts one = parse_cpu_facts(kTwoCoreAvx512, "3500000\n", 1);
    EXPECT_EQ(one.cores, 1);
    EXPECT_DOUBLE_EQ(one.clock_hz, 3.5e9);
    const CpuFacts old = parse_cpu_facts("processor : 0\ncpu MHz : 1000\nflags : sse2\n", "", 1);
    EXPECT_EQ(old.simd_bits, 128);
    EXPECT_FALSE(old.fma);
    EXPECT_DOUBLE_EQ(cpu_peaks(old, Precision::fp32, 0).flops.value, 1e9 * 4);
}

// Plausible, not fast: a sanitizer build on a loaded machine may measure far less than
// the hardware gives, so the floor only catches a triad that moved nothing.
TEST(DevicePeaks, TriadIsPlausible) {
    const double bandwidth = measure_triad_bandwidth(2, 0.2);
    EXPECT_GT(bandwidth, 1e7);
    EXPECT_LT(bandwidth, 2e12);
}

}  // namespace
}  // namespace trainscope::workloads
