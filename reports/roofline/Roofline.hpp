#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "profiler/analysis/OpWork.hpp"
#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// The two roofs of a run (peak_tflops, peak_bandwidth_gbps), in FLOP/s and bytes/s.
struct Roofs {
    double peak_flops_per_s = 0.0;
    double peak_bytes_per_s = 0.0;

    [[nodiscard]] bool known() const { return peak_flops_per_s > 0.0 && peak_bytes_per_s > 0.0; }
    // The arithmetic intensity (FLOP/byte) where the memory roof meets the compute roof.
    [[nodiscard]] double ridge_intensity() const { return peak_flops_per_s / peak_bytes_per_s; }
    // What an op of this intensity can reach at most: min(compute roof, intensity × bandwidth).
    [[nodiscard]] double attainable_flops_per_s(double intensity) const;
};

// The run's roofs from its metrics; unknown (zeros) when it recorded none.
Roofs roofs_of(const std::vector<Metric>& metrics);

// The run-level figures from metrics the run recorded (images_per_s, model FLOPs per
// image, peak_tflops): achieved_tflops and mfu_pct. Empty when a figure is missing. MFU is
// model FLOPs × images/s over the peak of the run's precision times `devices`: images/s
// is the whole job's, peak_tflops one device's (the roof each op runs under), so a cell
// on two GPUs has twice the peak. Ranks sharing one CPU share its peak (devices 1).
std::vector<Metric> roofline_run_metrics(const std::vector<Metric>& metrics, int devices = 1);

enum class Bound { unknown, memory, compute };
std::string_view to_string(Bound bound);

// One op name on the roofline: its totals (profiler::total_op_work_by_name), where it
// sits (intensity, achieved FLOP/s and bandwidth) and which roof limits it.
struct OpRooflineRow {
    std::string name;
    std::string category;  // profiler::KernelCategory of the op name (conv, gemm, ...)
    std::int64_t count = 0;
    double flops = 0.0;
    double bytes = 0.0;
    std::int64_t device_ns = 0;
    double intensity = 0.0;             // FLOP per byte; 0 without bytes
    double achieved_flops_per_s = 0.0;  // flops ÷ device time
    double achieved_bytes_per_s = 0.0;  // bytes ÷ device time
    double roof_pct = 0.0;              // achieved ÷ attainable at this intensity, %; 0 unknown
    Bound bound = Bound::unknown;       // below the ridge: memory; at or above: compute
};

// Every op name that carries work, by device time (largest first); a job's ranks together.
std::vector<OpRooflineRow> op_roofline(const profiler::Trace& trace, const Roofs& roofs,
                                       const profiler::TimeWindow& window = {});
// The same from op totals (profiler::OpWorkAccumulator's by_name, a streamed read's).
std::vector<OpRooflineRow> op_roofline(const std::vector<profiler::OpWorkTotals>& totals,
                                       const Roofs& roofs);
// The same for each rank on its own, by rank (ops.csv).
std::map<std::int32_t, std::vector<OpRooflineRow>> op_roofline_by_rank(
    const profiler::Trace& trace, const Roofs& roofs, const profiler::TimeWindow& window = {});

}  // namespace trainscope::reports
