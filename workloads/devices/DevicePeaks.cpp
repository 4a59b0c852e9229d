#include "workloads/devices/DevicePeaks.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

namespace trainscope::workloads {

namespace {

// Dense FLOP/clock/SM by architecture (multiply-add = 2). FMA pipes: fp32, fp64; tensor
// cores: tf32, fp16 (= bf16 where the architecture has bf16), fp64 (DMMA).
struct ArchitectureRow {
    int major;
    int minor;
    double fp32;
    double fp64;
    double tf32_tc;
    double fp16_tc;
    double bf16_tc;
    double fp64_tc;
};

// V100 15.7 TF fp32 / 125 TF fp16 TC (80 SMs, 1530 MHz); T4 8.1 / 65 (40, 1590);
// A100 19.5 fp32, 9.7 fp64, 19.5 fp64 TC, 156 tf32, 312 fp16/bf16 (108, 1410);
// A10 31.2 fp32, 62.5 tf32, 125 fp16 (72, 1695); L40 90.5 fp32, 181 fp16 (142, 2490)
// (the sm_89 row's 1024 fp16 per SM-clock is the L40S's 362 TF, twice the L40's: the
// larger of one architecture's parts, so the roof stays above either);
// H100 SXM 67 fp32, 34 fp64, 67 fp64 TC, 495 tf32, 990 fp16/bf16 (132, 1830);
// B200 80 fp32, 40 fp64 TC, 1100 tf32, 2250 fp16/bf16 (148, ~1900).
constexpr ArchitectureRow kArchitectures[] = {
    {7, 0, 128, 64, 0, 1024, 0, 0},           {7, 5, 128, 4, 0, 1024, 0, 0},
    {8, 0, 128, 64, 1024, 2048, 2048, 128},   {8, 6, 256, 4, 512, 1024, 1024, 0},
    {8, 9, 256, 4, 512, 1024, 1024, 0},       {9, 0, 256, 128, 2048, 4096, 4096, 256},
    {10, 0, 256, 128, 4096, 8192, 8192, 128},
};

const ArchitectureRow& row_for(int major, int minor) {
    const ArchitectureRow* best = &kArchitectures[0];
    for (const ArchitectureRow& row : kArchitectures) {
        if (std::pair(row.major, row.minor) <= std::pair(major, minor))
            best = &row;
    }
    return *best;
}

// Shortest readable text of a figure (1410, 2.3e+03 never: %g keeps 6 digits).
std::string number(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

int usable_cpu_count() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        return CPU_COUNT(&set);
    return static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
}

}  // namespace

double gpu_flops_per_clock_per_sm(int major, int minor, Precision precision, bool tensor_cores) {
    const ArchitectureRow& row = row_for(major, minor);
    switch (precision) {
        case Precision::fp64:
            return tensor_cores ? row.fp64_tc : row.fp64;
        case Precision::fp32:
            return tensor_cores ? 0.0 : row.fp32;
        case Precision::tf32:
            return tensor_cores ? row.tf32_tc : row.fp32;
        case Precision::fp16:
            return tensor_cores ? row.fp16_tc : 2.0 * row.fp32;  // packed half2 FMA
        case Precision::bf16:
            return tensor_cores ? row.bf16_tc : row.fp32;
    }
    return 0.0;
}

DevicePeaks gpu_peaks(const CudaDeviceInfo& device, Precision precision) {
    DevicePeaks peaks;
    const double with_tc =
        gpu_flops_per_clock_per_sm(device.compute_major, device.compute_minor, precision, true);
    const bool tensor_cores = precision != Precision::fp32 && with_tc > 0.0;
    const double per_clock =
        tensor_cores ? with_tc
                     : gpu_flops_per_clock_per_sm(device.compute_major, device.compute_minor,
                                                  precision, false);
    const double clock_hz = static_cast<double>(device.sm_clock_khz) * 1e3;
    peaks.flops.value = per_clock * static_cast<double>(device.sm_count) * clock_hz;
    peaks.flops.source = "table: sm_" + std::to_string(device.compute_major) +
                         std::to_string(device.compute_minor) + " " + to_string(precision) +
                         (tensor_cores ? " tensor cores " : " FMA units ") + number(per_clock) +
                         " FLOP/clock/SM x " + std::to_string(device.sm_count) + " SMs x " +
                         number(clock_hz / 1e6) + " MHz (cudaDevAttrClockRate)";
    peaks.bandwidth.value = 2.0 * static_cast<double>(device.memory_clock_khz) * 1e3 *
                            static_cast<double>(device.memory_bus_width_bits) / 8.0;
    peaks.bandwidth.source =
        "device: 2 x " + number(static_cast<double>(device.memory_clock_khz) / 1e3) +
        " MHz memory clock x " + std::to_string(device.memory_bus_width_bits) +
        " bit bus (cudaDevAttrMemoryClockRate, cudaDevAttrGlobalMemoryBusWidth)";
    return peaks;
}

CpuFacts parse_cpu_facts(const std::string& cpuinfo, const std::string& max_freq_khz,
                         int usable_cpus) {
    CpuFacts facts;
    std::set<std::pair<int, int>> cores;  // (physical id, core id)
    int processors = 0;
    int physical = 0;
    double mhz = 0.0;
    std::string flags;
    std::istringstream lines(cpuinfo);
    for (std::string line; std::getline(lines, line);) {
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        std::string key = line.substr(0, colon);
        key.erase(key.find_last_not_of(" \t") + 1);
        const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
        if (key == "processor") {
            ++processors;
        } else if (key == "physical id") {
            physical = std::atoi(value.c_str());
        } else if (key == "core id") {
            cores.insert({physical, std::atoi(value.c_str())});
        } else if (key == "cpu MHz") {
            mhz = std::max(mhz, std::atof(value.c_str()));
        } else if (key == "flags" && flags.empty()) {
            flags = " " + value + " ";
        }
    }
    const auto has = [&flags](const char* flag) {
        return flags.find(std::string(" ") + flag + " ") != std::string::npos;
    };
    // Hyperthreads share their core's vector units: count cores, at most the CPUs usable.
    const int machine_cores = cores.empty() ? processors : static_cast<int>(cores.size());
    facts.cores = std::max(1, std::min(machine_cores > 0 ? machine_cores : usable_cpus,
                                       usable_cpus > 0 ? usable_cpus : machine_cores));
    if (const double khz = std::atof(max_freq_khz.c_str()); khz > 0.0) {
        facts.clock_hz = khz * 1e3;
        facts.clock_source = "cpufreq cpuinfo_max_freq";
    } else {
        facts.clock_hz = mhz * 1e6;
        facts.clock_source = "/proc/cpuinfo cpu MHz";
    }
    facts.simd_bits = has("avx512f") ? 512 : (has("avx2") || has("avx")) ? 256 : 128;
    facts.fma = has("fma") || has("avx512f");
    return facts;
}

CpuFacts read_cpu_facts() {
    return parse_cpu_facts(read_text("/proc/cpuinfo"),
                           read_text("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"),
                           usable_cpu_count());
}

double measure_triad_bandwidth(int threads, double budget_s) {
    // 3 x 32 MiB: beyond the last-level cache of the machines this runs on.
    constexpr std::size_t kElements = std::size_t{1} << 22;
    threads = std::max(1, threads);
    std::vector<double> a(kElements, 0.0);
    std::vector<double> b(kElements, 1.0);
    std::vector<double> c(kElements, 2.0);
    const auto pass = [&] {
        std::vector<std::thread> team;
        const std::size_t chunk =
            (kElements + static_cast<std::size_t>(threads) - 1) / static_cast<std::size_t>(threads);
        for (int t = 0; t < threads; ++t) {
            team.emplace_back([&, t] {
                const std::size_t begin = static_cast<std::size_t>(t) * chunk;
                const std::size_t end = std::min(kElements, begin + chunk);
                for (std::size_t i = begin; i < end; ++i)
                    a[i] = b[i] + 3.0 * c[i];
            });
        }
        for (std::thread& worker : team)
            worker.join();
    };
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration<double>(budget_s);
    double best_s = 0.0;
    for (int round = 0; round < 50 && (round < 2 || Clock::now() < deadline); ++round) {
        const auto start = Clock::now();
        pass();
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        if (round > 0 && (best_s == 0.0 || seconds < best_s))  // the first pass pages in
            best_s = seconds;
    }
    return best_s > 0.0 ? 3.0 * sizeof(double) * static_cast<double>(kElements) / best_s : 0.0;
}

DevicePeaks cpu_peaks(const CpuFacts& cpu, Precision precision, double measured_bandwidth) {
    DevicePeaks peaks;
    const int element_bits = precision == Precision::fp64 ? 64 : 32;
    const int lanes = cpu.simd_bits / element_bits;
    // An upper bound, so that utilisation never reads above 100 %: x86 cores with FMA
    // (Haswell and later) issue two vector FMAs per clock, each 2 FLOPs per lane.
    const int fma = cpu.fma ? 2 : 1;
    const int pipes = cpu.fma ? 2 : 1;
    peaks.flops.value = static_cast<double>(cpu.cores) * cpu.clock_hz * lanes * fma * pipes;
    peaks.flops.source = "cpu: " + std::to_string(cpu.cores) + " cores x " +
                         number(cpu.clock_hz / 1e6) + " MHz (" + cpu.clock_source + ") x " +
                         std::to_string(lanes) + " " + std::to_string(element_bits) +
                         "-bit lanes (" + std::to_string(cpu.simd_bits) + "-bit SIMD) x " +
                         std::to_string(fma) + (cpu.fma ? " (FMA)" : " (no FMA)") + " x " +
                         std::to_string(pipes) + " vector pipes per core (an upper bound)";
    peaks.bandwidth.value = measured_bandwidth;
    peaks.bandwidth.source = "measured: triad a = b + s*c over 3 x 32 MiB, best pass";
    return peaks;
}

}  // namespace trainscope::workloads
