#pragma once

#include <cstdint>
#include <vector>

#include "profiler/analysis/DeviceWorkAccumulator.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// How much copying ran while kernels ran, per device. copy_ns and compute_ns are the
// lengths of the unions of memcpy and of kernel intervals; overlap_ns the length of
// their intersection; exposed_copy_ns the copy time with no kernel running.
struct CopyComputeOverlap {
    std::int32_t rank = 0;
    std::int32_t device = -1;
    std::int64_t copy_ns = 0;
    std::int64_t compute_ns = 0;
    std::int64_t overlap_ns = 0;
    std::int64_t exposed_copy_ns = 0;
    double overlapped_copy_fraction = 0.0;  // overlap / copy; 0 without copies
};

// One entry per device (work_device: rank and device) with kernels or copies, ordered by
// rank, then device.
std::vector<CopyComputeOverlap> analyze_copy_compute_overlap(const Trace& trace);
// The same from work accumulated activity by activity (a streamed import).
std::vector<CopyComputeOverlap> analyze_copy_compute_overlap(const DeviceWorkAccumulator& work);

}  // namespace trainscope::profiler
