#include "reports/trace/StoredRunAnalysis.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/OpWork.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "profiler/analysis/StepApiCounts.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {

namespace {

bool has_host_nvtx_lane(const profiler::Trace& header) {
    return std::any_of(header.lanes.begin(), header.lanes.end(), [](const profiler::Lane& lane) {
        return lane.kind == profiler::LaneKind::Nvtx && lane.device < 0;
    });
}

bool names(const profiler::StringTable& strings, const std::string& name) {
    for (std::size_t id = 0; id < strings.size(); ++id) {
        if (strings.at(static_cast<profiler::StringId>(id)) == name)
            return true;
    }
    return false;
}

// Run `run_id`'s rows in trace order (checked against `stored`, its stored header), or,
// through `slice`, one rank's: lanes renumbered, indexed as in trace_of_rank's trace.
template <class Visit>
void scan_run(const ResultsDatabase& db, std::int64_t run_id, const profiler::Trace& stored,
              const profiler::RankSlice* slice, const Visit& visit) {
    std::size_t next = 0;
    scan_activities(
        db, run_id, stored,
        [&](const profiler::Activity& a, std::size_t index) {
            if (slice == nullptr)
                return visit(a, index);
            profiler::Activity copy = a;
            return !slice->take(copy) || visit(copy, next++);
        },
        ActivityColumns::analysis);
}

}  // namespace

std::optional<StoredRunAnalysis> analyze_stored_run(const ResultsDatabase& db, std::int64_t run_id,
                                                    profiler::Trace& header, std::int32_t rank) {
    // One rank's part: the rows are checked against the stored lanes (`stored`), the
    // analyses see the rank's header and its activities renumbered (RankSlice).
    profiler::Trace stored;
    std::optional<profiler::RankSlice> slice;
    if (rank >= 0) {
        stored = std::move(header);
        slice.emplace(stored, rank);
        header = slice->header();
    }
    const profiler::Trace& scanned = slice ? stored : header;
    const auto scan = [&](const auto& visit) {
        scan_run(db, run_id, scanned, slice ? &*slice : nullptr, visit);
    };
    const profiler::Trace& h = header;
    // A job's: its ranks' work and communication, the GPU work's (a CPU-backend job falls
    // back to the whole trace below).
    std::optional<profiler::JobAnalysisAccumulator> job;
    std::map<std::int32_t, profiler::KernelBreakdownAccumulator> rank_kernels;
    if (profiler::ranks_of(h).size() > 1)
        job.emplace(h, false);
    profiler::DeviceWorkAccumulator work(h.lanes);
    profiler::KernelBreakdownAccumulator kernels(h.strings);
    profiler::TensorCoreAccumulator tensor_cores(h.strings);
    profiler::TraceHealthAccumulator health(h);
    // Only a trace with NVTX lanes has ranges to project: the others keep no launches.
    std::optional<profiler::HostRangeProjectionAccumulator> nvtx;
    if (has_host_nvtx_lane(h))
        nvtx.emplace(profiler::HostRangeProjectionAccumulator::nvtx(h.lanes, false));
    // Step ranges need a name "step" (StepApiCountOptions): without it, no calls are kept.
    std::optional<profiler::StepApiCountsAccumulator> steps;
    if (nvtx && names(h.strings, profiler::StepApiCountOptions{}.step_range))
        steps.emplace(h.lanes, h.strings);
    bool runtime_api = false;
    bool op_work = false;
    std::size_t count = 0;
    bool gpu_work = false;
    bool host_ops = false;
    // A job's lanes' kinds of work: a rank of host ops alone gets op rows by self time.
    constexpr std::uint8_t kGpuWork = 1;
    constexpr std::uint8_t kHostOps = 2;
    std::vector<std::uint8_t> lane_work(job ? h.lanes.size() : 0, 0);
    scan([&](const profiler::Activity& a, std::size_t index) {
        op_work = op_work || profiler::carries_op_work(a);
        if (nvtx)
            nvtx->add(a, index);
        if (steps)
            steps->add(a, index);
        runtime_api = runtime_api || a.kind == profiler::ActivityKind::RuntimeApi;
        ++count;
        work.add(a);
        tensor_cores.add(a);
        health.add(a);
        if (job)
            job->add(a);
        if (profiler::is_gpu_work(a.kind)) {
            gpu_work = true;
            kernels.add(a, index, a.duration_ns());
            if (job) {
                rank_kernels.try_emplace(h.lanes[a.lane].rank, h.strings)
                    .first->second.add(a, index, a.duration_ns());
            }
        }
        host_ops = host_ops || a.kind == profiler::ActivityKind::HostOp;
        if (job && a.lane < lane_work.size()) {
            lane_work[a.lane] |= profiler::is_gpu_work(a.kind) ? kGpuWork : 0;
            lane_work[a.lane] |= a.kind == profiler::ActivityKind::HostOp ? kHostOps : 0;
        }
        return true;
    });
    // A CPU-backend trace: its ops are the device's work, by self time (whole trace). So
    // is a job's rank of host ops alone, whose kernels.csv rows are its ops.
    if (!gpu_work && host_ops)
        return std::nullopt;
    if (job) {
        std::map<std::int32_t, std::uint8_t> rank_work;
        for (std::size_t lane = 0; lane < lane_work.size(); ++lane)
            rank_work[h.lanes[lane].rank] |= lane_work[lane];
        for (const auto& [of_rank, kinds] : rank_work) {
            if (kinds == kHostOps)
                return std::nullopt;
        }
    }
    // Ops carrying work (trainscope's own runs): their launches joined to their kernels in
    // a second read, so that a trace without them keeps no launches for it.
    profiler::OpWorkAccumulator::Totals op_totals;
    if (op_work) {
        profiler::OpWorkAccumulator ops(h.lanes);
        scan([&ops](const profiler::Activity& a, std::size_t index) {
            ops.add(a, index);
            return true;
        });
        op_totals = std::move(ops).finish(h.strings);
    }
    // The accumulators finish before the header (their names) moves; moving it keeps its
    // lanes' buffer, which `work` refers to.
    profiler::KernelBreakdown kernel_breakdown = std::move(kernels).finish();
    profiler::TensorCoreUsage tensor_core_usage = tensor_cores.finish();
    profiler::TraceHealth trace_health = std::move(health).finish();
    std::vector<profiler::NvtxRangeGpuTime> nvtx_ranges;
    if (nvtx)
        nvtx_ranges = std::move(*nvtx).finish(h.strings);
    std::vector<profiler::StepApiCounts> step_counts;
    if (steps)
        step_counts = std::move(*steps).finish();
    std::optional<profiler::JobAnalysis> job_analysis;
    if (job)
        job_analysis = std::move(*job).finish();
    std::map<std::int32_t, profiler::KernelBreakdown> kernels_by_rank;
    for (auto& [of_rank, accumulator] : rank_kernels)
        kernels_by_rank.emplace(of_rank, std::move(accumulator).finish());
    StoredRunAnalysis out(std::move(header), std::move(work));
    out.activity_count = count;
    out.kernels = std::move(kernel_breakdown);
    out.tensor_cores = std::move(tensor_core_usage);
    out.health = std::move(trace_health);
    out.nvtx_ranges = std::move(nvtx_ranges);
    out.runtime_api_records = runtime_api;
    out.steps = std::move(step_counts);
    out.op_work = std::move(op_totals);
    out.job = std::move(job_analysis);
    out.kernels_by_rank = std::move(kernels_by_rank);
    return out;
}

StoredHtaBreakdown analyze_stored_hta(const ResultsDatabase& db, std::int64_t run_id,
                                      const profiler::Trace& header, std::int32_t rank) {
    StoredHtaBreakdown out;
    std::optional<profiler::RankSlice> slice;
    profiler::Trace rank_header;
    if (rank >= 0) {
        slice.emplace(header, rank);
        rank_header = slice->header();
    }
    const profiler::Trace& analysed = slice ? rank_header : header;
    out.lanes = analysed.lanes.size();
    profiler::HtaBreakdownAccumulator hta(analysed);
    scan_run(db, run_id, header, slice ? &*slice : nullptr,
             [&](const profiler::Activity& a, std::size_t) {
                 ++out.activity_count;
                 hta.add(a);
                 return true;
             });
    out.ranks = std::move(hta).finish();
    return out;
}

}  // namespace trainscope::reports
