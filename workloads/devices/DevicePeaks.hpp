#pragma once

#include <cstdint>
#include <string>

#include "workloads/devices/DeviceQuery.hpp"
#include "workloads/numerics/Precision.hpp"

namespace trainscope::workloads {

// One limit of the machine with where it came from, in words a user can check
// ("table: sm_80 tf32 tensor cores 1024 FLOP/clock/SM x 108 SMs x 1410 MHz").
struct PeakFigure {
    double value = 0.0;  // FLOP/s or bytes/s; 0 when unknown
    std::string source;
};

// The two roofs of the roofline for one run: the compute peak of the run's precision
// and the memory bandwidth.
struct DevicePeaks {
    PeakFigure flops;
    PeakFigure bandwidth;
};

// Dense FLOP per clock per SM (multiply-add = 2) of compute capability major.minor, with
// tensor cores (the precision's matrix units) or without (the FMA pipes); 0 where the
// architecture has no such unit (tf32 before sm_80). From NVIDIA's architecture
// whitepapers (V100, T4, A100, A10, L40, H100, B200): peak TFLOP/s divided by SMs and
// boost clock. An architecture newer than the table takes its newest row.
double gpu_flops_per_clock_per_sm(int major, int minor, Precision precision, bool tensor_cores);

// The GPU's roofs for `precision`: the table's FLOP/clock/SM x SMs x SM clock (tensor
// cores for tf32, fp16, bf16 and fp64 where the architecture has them, as the CUDA
// backend's libraries use them; fp32 runs without them, DESIGN.md "Precision"), and the
// memory bandwidth from the memory clock and bus width (2 transfers per clock).
DevicePeaks gpu_peaks(const CudaDeviceInfo& device, Precision precision);

// What /proc/cpuinfo (and cpufreq, where the kernel has it) say about the cores this
// process may run on.
struct CpuFacts {
    int cores = 0;          // physical cores among those the process may use
    double clock_hz = 0.0;  // cpuinfo_max_freq, else the highest "cpu MHz"
    int simd_bits = 0;      // 512 (avx512f), 256 (avx/avx2), 128 (sse2)
    bool fma = false;       // fma or avx512f
    std::string clock_source;
};
CpuFacts read_cpu_facts();
// For tests: the same from given texts.
CpuFacts parse_cpu_facts(const std::string& cpuinfo, const std::string& max_freq_khz,
                         int usable_cpus);

// Memory bandwidth of this machine by a STREAM-style triad a[i] = b[i] + s * c[i] on one
// thread per core over arrays larger than the caches, best pass within `budget_s`
// (bytes counted as STREAM does: 3 x 8 per element).
double measure_triad_bandwidth(int threads, double budget_s = 0.25);

// The CPU's roofs: cores x clock x SIMD lanes of the precision's arithmetic type (fp64
// for fp64, fp32 otherwise: the CPU backend emulates tf32, fp16 and bf16 in fp32) x 2 for
// FMA x 2 FMA pipes per core (Haswell and later; /proc/cpuinfo cannot tell a core with
// one AVX-512 unit, so the peak is an upper bound and utilisation never exceeds 100 %);
// the bandwidth as measured.
DevicePeaks cpu_peaks(const CpuFacts& cpu, Precision precision, double measured_bandwidth);

}  // namespace trainscope::workloads
