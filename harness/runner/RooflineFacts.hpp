#pragma once

#include <map>
#include <string>
#include <vector>

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
RooflineFacts measure_roofline_facts(const workloads::TrainingConfig& config);

}  // namespace trainscope::harness
