#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "profiler/analysis/DeviceWorkAccumulator.hpp"
#include "profiler/analysis/JobAnalysis.hpp"
#include "profiler/analysis/KernelBreakdownAnalysis.hpp"
#include "profiler/analysis/NvtxProjectionAnalysis.hpp"
#include "profiler/analysis/OpWork.hpp"
#include "profiler/analysis/RankTimeBreakdown.hpp"
#include "profiler/analysis/StepApiCounts.hpp"
#include "profiler/analysis/TensorCoreAnalysis.hpp"
#include "profiler/analysis/TraceHealthAnalysis.hpp"
#include "profiler/trace/Trace.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// What `analyze` (default mode) and `report --csv` ask of a run's whole trace, from one
// read of its stored rows in trace order (scan_activities) feeding the analyses'
// accumulators, without holding the activities: busy time and copy/compute overlap
// (DeviceWorkAccumulator), the kernel breakdown, tensor cores, trace health and the NVTX
// ranges projected to the GPU work they launched (HostRangeProjectionAccumulator) and the
// API calls counted per NVTX step range (StepApiCountsAccumulator), and the ops' work
// (OpWorkAccumulator). The
// figures are those the whole-trace functions give (they are wrappers over the same
// accumulators). `header` is the trace without its activities; kernel breakdown's
// `longest` are indexes into the stored trace (ActivityReader reads them).
struct StoredRunAnalysis {
    // `work` refers to header.lanes: the two move together (a vector's move keeps its
    // buffer), and a copy, whose `work` would refer to the original's lanes, is refused.
    StoredRunAnalysis(profiler::Trace&& trace_header, profiler::DeviceWorkAccumulator&& device_work)
        : header(std::move(trace_header)), work(std::move(device_work)) {}
    StoredRunAnalysis(const StoredRunAnalysis&) = delete;
    StoredRunAnalysis& operator=(const StoredRunAnalysis&) = delete;
    StoredRunAnalysis(StoredRunAnalysis&&) = default;
    StoredRunAnalysis& operator=(StoredRunAnalysis&&) = default;
    ~StoredRunAnalysis() = default;

    profiler::Trace header;
    std::size_t activity_count = 0;
    profiler::DeviceWorkAccumulator work;
    profiler::KernelBreakdown kernels;
    profiler::TensorCoreUsage tensor_cores;
    profiler::TraceHealth health;
    std::vector<profiler::NvtxRangeGpuTime> nvtx_ranges;  // project_nvtx_ranges_to_gpu's
    bool runtime_api_records = false;                     // has_runtime_api_records
    std::vector<profiler::StepApiCounts> steps;           // count_api_calls_per_step's
    profiler::OpWorkAccumulator::Totals op_work;          // total_op_work_by_name/_by_rank's
    // A job's (several ranks): analyze_job's, and each rank's kernel breakdown
    // (analyze_kernel_breakdown of its trace_of_rank, `longest` indexing the whole trace).
    std::optional<profiler::JobAnalysis> job;
    std::map<std::int32_t, profiler::KernelBreakdown> kernels_by_rank;
};

// The analysis of run `run_id`'s stored trace read once in order, or nullopt where its
// trace needs the whole-trace analyses: a CPU-backend trace's (is_host_op_trace). A
// distributed job's (several ranks) adds the job analysis; the other figures pool its
// ranks, as the whole-trace functions do. A trace whose ops carry FLOPs or bytes is read a
// second time for their work (OpWorkAccumulator). `header` is the
// run's load_trace_header (moved in on success). `rank` >= 0, one of the header's ranks:
// the analysis of that rank's part alone (trace_of_rank's; the result's header is that
// rank's, its indexes those of its activities; `header` is left as the rank's header on
// nullopt too). Same errors as scan_activities.
std::optional<StoredRunAnalysis> analyze_stored_run(const ResultsDatabase& db, std::int64_t run_id,
                                                    profiler::Trace& header,
                                                    std::int32_t rank = -1);

// `analyze --mode hta`: Holistic Trace Analysis's per-rank breakdown
// (analyze_rank_time_breakdown's Hta rows) from one read of the stored rows, of the whole
// run or (`rank` >= 0, one of the header's ranks) of that rank's trace_of_rank.
struct StoredHtaBreakdown {
    std::size_t activity_count = 0;  // the run's, or the rank's
    std::size_t lanes = 0;
    std::vector<profiler::RankTimeBreakdown> ranks;
};
StoredHtaBreakdown analyze_stored_hta(const ResultsDatabase& db, std::int64_t run_id,
                                      const profiler::Trace& header, std::int32_t rank = -1);

}  // namespace trainscope::reports
