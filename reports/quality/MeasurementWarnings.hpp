#pragma once

#include <string>
#include <vector>

#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// Over these, a cell's timings measured contention as much as the workload: a CPU
// backend's workers waited for cores (OpenMP workers spin for partners that cannot run),
// a GPU's launches queued behind other processes.
inline constexpr double kBusyHostOtherCpuPct = 10.0;  // metric host_other_cpu_pct
inline constexpr double kBusyHostStealPct = 5.0;      // metric host_steal_pct

// A reason a run's timings may not measure its workload alone.
struct MeasurementWarning {
    std::string tag;   // short, for a status cell: "busy host", "throttled"
    std::string text;  // one sentence with the figures
};

// From the run's metrics: the machine was busy (host_other_cpu_pct, host_steal_pct over
// the thresholds), the GPU throttled (throttled_sample_pct > 0). Empty for a clean run.
std::vector<MeasurementWarning> measurement_warnings(const RunRecord& run);

}  // namespace trainscope::reports
