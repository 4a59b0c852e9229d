#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/matrix/Cell.hpp"
#include "reports/store/RunRecord.hpp"
#include "workloads/training/TrainingConfig.hpp"

namespace trainscope::harness {

// What a run's roofline needs besides its own timings: the model's FLOPs per image
// (workloads::model_flops_per_image) and the device's two roofs for the run's precision
// (workloads/devices/DevicePeaks: the GPU table and device facts, or the CPU's flags and
// a triad of at most 0.3 s), as metrics, with each roof's source in the environment
// (peak_flops_source, peak_bandwidth_source). Taken before the cell's capture starts,
// so neither the counting pass nor the triad shows in its trace. A figure that cannot
// be had is left out and the environment says why (roofline_note).
struct RooflineFacts {
    std::vector<reports::Metric> metrics;
    std::map<std::string, std::string> environment;
};
// `host_bandwidth_bytes_per_s` > 0: the CPU's bandwidth as measured already (once for a
// multi-rank cell's ranks, host_bandwidth_for_ranks), not measured again.
RooflineFacts measure_roofline_facts(const workloads::TrainingConfig& config,
                                     double host_bandwidth_bytes_per_s = 0.0);

// A multi-rank CPU cell's ranks share the machine's memory: measured by every rank at once,
// the triad would give each about 1/N of the bandwidth. So the cell's parent measures it
// once, before the ranks start, and hands it to them (CellJob); under Slurm the task's node
// stands for the others of its allocation. 0 for a cell that needs none (one rank, a GPU
// backend, a PyTorch cell, a skipped cell).
double host_bandwidth_for_ranks(const Cell& cell);

}  // namespace trainscope::harness
