// analyze_stored_run, one read of a stored run's rows feeding the accumulators, gives what
// the whole-trace analyses give on the same stored trace (load_trace), on the shared
// traces recorded by others; and it leaves to the whole-trace path exactly the traces it
// does not answer (several ranks, a CPU-backend trace); ops carrying work are read in a
// second pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "profiler/analysis/CopyComputeOverlapAnalysis.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/OpWork.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "profiler/analysis/StepApiCounts.hpp"
#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/formats/NsysSqliteImporter.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/TraceStore.hpp"
#include "reports/trace/StoredRunAnalysis.hpp"

namespace trainscope::reports {
namespace {

std::filesystem::path shared(const std::string& relative) {
    return std::filesystem::path(TRAINSCOPE_SHARED_DIR) / "traces" / relative;
}

// What the whole-trace path is kept for (AnalyzeCommand, ReportTables).
bool needs_whole_trace(const profiler::Trace& trace) {
    return profiler::ranks_of(trace).size() > 1 || profiler::is_host_op_trace(trace);
}

void expect_same(const profiler::DurationStats& got, const profiler::DurationStats& want) {
    EXPECT_EQ(got.count, want.count);
    EXPECT_EQ(got.total_ns, want.total_ns);
    EXPECT_EQ(got.min_ns, want.min_ns);
    EXPECT_EQ(got.max_ns, want.max_ns);
    EXPECT_EQ(got.mean_ns, want.mean_ns);
    EXPECT_EQ(got.share, want.share);
}

// A copy's `work` would refer to the original's lanes.
static_assert(!std::is_copy_constructible_v<StoredRunAnalysis> &&
              !std::is_copy_assignable_v<StoredRunAnalysis> &&
              std::is_move_constructible_v<StoredRunAnalysis>);

void expect_same_as_whole(const StoredRunAnalysis& got, const profiler::Trace& whole) {
    EXPECT_EQ(got.activity_count, whole.activities.size());
    profiler::GpuBusyOptions options;
    options.short_gap_threshold_ns = 2'000;
    const auto busy = profiler::analyze_gpu_busy(got.work, options);
    const auto want_busy = profiler::analyze_gpu_busy(whole, options);
    ASSERT_EQ(busy.size(), want_busy.size());
    for (std::size_t i = 0; i < busy.size(); ++i) {
        EXPECT_EQ(busy[i].device, want_busy[i].device);
        EXPECT_EQ(busy[i].span_ns, want_busy[i].span_ns);
        EXPECT_EQ(busy[i].busy_ns, want_busy[i].busy_ns);
        EXPECT_EQ(busy[i].short_gap_count, want_busy[i].short_gap_count);
        EXPECT_EQ(busy[i].long_gap_idle_ns, want_busy[i].long_gap_idle_ns);
    }
    const auto overlap = profiler::analyze_copy_compute_overlap(got.work);
    const auto want_overlap = profiler::analyze_copy_compute_overlap(whole);
    ASSERT_EQ(overlap.size(), want_overlap.size());
    for (std::size_t i = 0; i < overlap.size(); ++i) {
        EXPECT_EQ(overlap[i].copy_ns, want_overlap[i].copy_ns);
        EXPECT_EQ(overlap[i].overlap_ns, want_overlap[i].overlap_ns);
    }
    const auto kernels = profiler::analyze_kernel_breakdown(whole);
    EXPECT_EQ(got.kernels.total_ns, kernels.total_ns);
    ASSERT_EQ(got.kernels.by_name.size(), kernels.by_name.size());
    for (std::size_t i = 0; i < kernels.by_name.size(); ++i) {
        EXPECT_EQ(got.kernels.by_name[i].name, kernels.by_name[i].name);
        EXPECT_EQ(got.kernels.by_name[i].category, kernels.by_name[i].category);
        EXPECT_EQ(got.kernels.by_name[i].longest, kernels.by_name[i].longest);
        expect_same(got.kernels.by_name[i].stats, kernels.by_name[i].stats);
    }
    ASSERT_EQ(got.kernels.by_category.size(), kernels.by_category.size());
    for (std::size_t i = 0; i < kernels.by_category.size(); ++i) {
        EXPECT_EQ(got.kernels.by_category[i].category, kernels.by_category[i].category);
        expect_same(got.kernels.by_category[i].stats, kernels.by_category[i].stats);
    }
    const auto tc = profiler::analyze_tensor_core_usage(whole);
    EXPECT_EQ(got.tensor_cores.tensor_core_kernel_count, tc.tensor_core_kernel_count);
    EXPECT_EQ(got.tensor_cores.kernel_ns, tc.kernel_ns);
    EXPECT_EQ(got.tensor_cores.kernel_names, tc.kernel_names);
    const auto ranges = profiler::project_nvtx_ranges_to_gpu(whole);
    ASSERT_EQ(got.nvtx_ranges.size(), ranges.size());
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        EXPECT_EQ(got.nvtx_ranges[i].range_index, ranges[i].range_index);
        EXPECT_EQ(got.nvtx_ranges[i].name, ranges[i].name);
        EXPECT_EQ(got.nvtx_ranges[i].depth, ranges[i].depth);
        EXPECT_EQ(got.nvtx_ranges[i].rank, ranges[i].rank);
        EXPECT_EQ(got.nvtx_ranges[i].host_begin_ns, ranges[i].host_begin_ns);
        EXPECT_EQ(got.nvtx_ranges[i].host_end_ns, ranges[i].host_end_ns);
        EXPECT_EQ(got.nvtx_ranges[i].copy_ns, ranges[i].copy_ns);
        EXPECT_EQ(got.nvtx_ranges[i].kernel_count, ranges[i].kernel_count);
        EXPECT_EQ(got.nvtx_ranges[i].kernel_ns, ranges[i].kernel_ns);
        EXPECT_EQ(got.nvtx_ranges[i].copy_count, ranges[i].copy_count);
        EXPECT_EQ(got.nvtx_ranges[i].gpu_busy_ns, ranges[i].gpu_busy_ns);
        EXPECT_EQ(got.nvtx_ranges[i].gpu_begin_ns, ranges[i].gpu_begin_ns);
        EXPECT_EQ(got.nvtx_ranges[i].gpu_end_ns, ranges[i].gpu_end_ns);
    }
    EXPECT_EQ(got.runtime_api_records, profiler::has_runtime_api_records(whole));
    const auto steps = profiler::count_api_calls_per_step(whole);
    ASSERT_EQ(got.steps.size(), steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
        EXPECT_EQ(got.steps[i].range_index, steps[i].range_index);
        EXPECT_EQ(got.steps[i].step.runtime_calls, steps[i].step.runtime_calls);
        EXPECT_EQ(got.steps[i].step.kernel_launches, steps[i].step.kernel_launches);
        EXPECT_EQ(got.steps[i].step.synchronizations, steps[i].step.synchronizations);
        EXPECT_EQ(got.steps[i].data.runtime_calls, steps[i].data.runtime_calls);
        EXPECT_EQ(got.steps[i].window.runtime_calls, steps[i].window.runtime_calls);
        EXPECT_EQ(got.steps[i].has_window, steps[i].has_window);
    }
    const auto ops = profiler::total_op_work_by_name(whole);
    ASSERT_EQ(got.op_work.by_name.size(), ops.size());
    for (std::size_t i = 0; i < ops.size(); ++i) {
        EXPECT_EQ(got.op_work.by_name[i].name, ops[i].name);
        EXPECT_EQ(got.op_work.by_name[i].count, ops[i].count);
        EXPECT_EQ(got.op_work.by_name[i].flops, ops[i].flops);
        EXPECT_EQ(got.op_work.by_name[i].bytes, ops[i].bytes);
        EXPECT_EQ(got.op_work.by_name[i].device_ns, ops[i].device_ns);
    }
    EXPECT_EQ(got.op_work.by_rank.size(), profiler::total_op_work_by_rank(whole).size());
    const auto h = profiler::analyze_trace_health(whole);
    EXPECT_EQ(got.health.zero_duration, h.zero_duration);
    EXPECT_EQ(got.health.negative_duration, h.negative_duration);
    EXPECT_EQ(got.health.outside_capture_window, h.outside_capture_window);
    EXPECT_EQ(got.health.gpu_work_before_launch, h.gpu_work_before_launch);
    EXPECT_EQ(got.health.max_clock_skew_ns, h.max_clock_skew_ns);
    EXPECT_EQ(got.health.gpu_work_without_launch, h.gpu_work_without_launch);
    EXPECT_EQ(got.health.graph_kernels_without_launch, h.graph_kernels_without_launch);
    EXPECT_EQ(got.health.dropped_records, h.dropped_records);
}

// Stores `trace` as a run, then reads it back both ways. Returns whether it streamed.
bool check_stored(const profiler::Trace& trace, const std::string& what) {
    SCOPED_TRACE(what);
    const testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    RunRecord run = testing::sample_run();
    run.trace = trace;
    const std::int64_t id = RunWriter(db).write(run);
    std::optional<profiler::Trace> header = load_trace_header(db, id);
    const std::optional<profiler::Trace> whole = load_trace(db, id);
    EXPECT_TRUE(header && whole);
    if (!header || !whole)
        return false;
    const auto streamed = analyze_stored_run(db, id, *header);
    EXPECT_EQ(streamed.has_value(), !needs_whole_trace(*whole));
    if (streamed)
        expect_same_as_whole(*streamed, *whole);
    return streamed.has_value();
}

// A Kineto trace without its annotations: its NVTX lanes become plain host threads.
profiler::Trace without_annotations(profiler::Trace trace) {
    std::erase_if(trace.activities,
                  [](const auto& a) { return a.kind == profiler::ActivityKind::NvtxRange; });
    for (auto& lane : trace.lanes) {
        if (lane.kind == profiler::LaneKind::Nvtx)
            lane.kind = profiler::LaneKind::HostThread;
    }
    return trace;
}

TEST(StoredRunAnalysis, StreamedEqualsTheWholeTraceOnTheSharedTraces) {
    for (const char* stem : {"v100_resnet50_training", "a100_two_streams_add",
                             "h100_bert_small_inference", "h100_vit_image_classification"}) {
        const profiler::Trace trace =
            profiler::import_kineto_trace(shared(std::string("kineto/") + stem + ".json.gz"));
        // The annotated ones project their NVTX ranges; the H100 ones hold tensor-core
        // kernels.
        EXPECT_TRUE(check_stored(trace, stem));
        EXPECT_TRUE(check_stored(without_annotations(trace), std::string(stem) + " bare"));
    }
    // Its ProfilerStep ranges renamed "step": the API calls counted per step.
    profiler::Trace steps =
        profiler::import_kineto_trace(shared("kineto/h100_bert_small_inference.json.gz"));
    const profiler::StringId step = steps.strings.intern("step");
    std::size_t renamed = 0;
    for (auto& a : steps.activities) {
        if (a.kind == profiler::ActivityKind::NvtxRange &&
            steps.strings.at(a.name).rfind("ProfilerStep", 0) == 0) {
            a.name = step;
            ++renamed;
        }
    }
    ASSERT_GT(renamed, 0u);
    ASSERT_FALSE(profiler::count_api_calls_per_step(steps).empty());
    EXPECT_TRUE(check_stored(steps, "step ranges"));
    const profiler::Trace nsys =
        profiler::import_nsys_sqlite(shared("nsys/a100_saxpy_mpi_cuda.sqlite"));
    EXPECT_TRUE(check_stored(nsys, "nsys"));
}

TEST(StoredRunAnalysis, LeavesJobsAndCpuTracesToTheWholeTraceAndReadsOpWorkTwice) {
    profiler::Trace base = without_annotations(
        profiler::import_kineto_trace(shared("kineto/a100_two_streams_add.json.gz")));
    ASSERT_TRUE(check_stored(base, "bare"));

    profiler::Trace job = base;
    job.lanes.back().rank = 1;
    job.world_size = 2;
    EXPECT_FALSE(check_stored(job, "two ranks"));

    // Ops carrying work: every other op given FLOPs and bytes (read twice, not whole).
    profiler::Trace op_work = base;
    int n = 0;
    for (auto& a : op_work.activities) {
        if (a.kind == profiler::ActivityKind::HostOp && n++ % 2 == 0) {
            a.flops = 1e6F * static_cast<float>(n);
            a.bytes = 4096 * n;
        }
    }
    ASSERT_GT(n, 2);
    ASSERT_FALSE(profiler::total_op_work_by_name(op_work).empty());
    EXPECT_TRUE(check_stored(op_work, "ops with FLOPs"));

    profiler::Trace cpu = base;
    std::erase_if(cpu.activities, [](const auto& a) { return profiler::is_gpu_work(a.kind); });
    EXPECT_FALSE(check_stored(cpu, "host ops only"));
}

}  // namespace
}  // namespace trainscope::reports
