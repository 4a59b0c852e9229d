// analyze_stored_run, one read of a stored run's rows feeding the accumulators, gives what
// the whole-trace analyses give on the same stored trace (load_trace), on the shared
// traces recorded by others and on the shared multi-rank jobs (whose job analysis it adds);
// and it leaves to the whole-trace path exactly the traces it does not answer (a
// CPU-backend trace); ops carrying work are read in a second pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "RowidGap.hpp"
#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "profiler/analysis/CopyComputeOverlapAnalysis.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/JobAnalysis.hpp"
#include "profiler/analysis/OpWork.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "profiler/analysis/StepApiCounts.hpp"
#include "profiler/formats/JobAssembly.hpp"
#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/formats/NsysSqliteImporter.hpp"
#include "reports/csv/ReportTables.hpp"
#include "reports/csv/TableRenderer.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/TraceStore.hpp"
#include "reports/trace/StoredRunAnalysis.hpp"

namespace trainscope::reports {
namespace {

std::filesystem::path shared(const std::string& relative) {
    return std::filesystem::path(TRAINSCOPE_SHARED_DIR) / "traces" / relative;
}

// What the whole-trace path is kept for (AnalyzeCommand, ReportTables): a CPU-backend
// trace, or a job with a rank of host ops alone (its kernels.csv rows are its ops).
bool needs_whole_trace(const profiler::Trace& trace) {
    if (profiler::is_host_op_trace(trace))
        return true;
    const auto ranks = profiler::ranks_of(trace);
    return ranks.size() > 1 && std::any_of(ranks.begin(), ranks.end(), [&trace](std::int32_t r) {
               return profiler::is_host_op_trace(profiler::trace_of_rank(trace, r));
           });
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

// The job analysis field by field against the whole-trace functions, each called apart.
void expect_same_job(const std::optional<profiler::JobAnalysis>& got,
                     const profiler::Trace& whole) {
    ASSERT_EQ(got.has_value(), profiler::ranks_of(whole).size() > 1);
    if (!got)
        return;
    const auto ranks = profiler::analyze_rank_time_breakdown(whole);
    ASSERT_EQ(got->ranks.size(), ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        EXPECT_EQ(got->ranks[i].rank, ranks[i].rank);
        EXPECT_EQ(got->ranks[i].span_ns, ranks[i].span_ns);
        EXPECT_EQ(got->ranks[i].idle_ns, ranks[i].idle_ns);
        EXPECT_EQ(got->ranks[i].compute_ns, ranks[i].compute_ns);
        EXPECT_EQ(got->ranks[i].non_compute_ns, ranks[i].non_compute_ns);
        EXPECT_EQ(got->ranks[i].communication_ns, ranks[i].communication_ns);
        EXPECT_EQ(got->ranks[i].overlap_ns, ranks[i].overlap_ns);
        EXPECT_EQ(got->ranks[i].work_count, ranks[i].work_count);
    }
    const auto stragglers = profiler::analyze_stragglers(whole);
    EXPECT_EQ(got->stragglers.slowest_rank, stragglers.slowest_rank);
    EXPECT_EQ(got->stragglers.total_wait_ns, stragglers.total_wait_ns);
    EXPECT_EQ(got->stragglers.collectives.size(), stragglers.collectives.size());
    ASSERT_EQ(got->stragglers.ranks.size(), stragglers.ranks.size());
    for (std::size_t i = 0; i < stragglers.ranks.size(); ++i) {
        EXPECT_EQ(got->stragglers.ranks[i].rank, stragglers.ranks[i].rank);
        EXPECT_EQ(got->stragglers.ranks[i].times_last, stragglers.ranks[i].times_last);
        EXPECT_EQ(got->stragglers.ranks[i].wait_caused_ns, stragglers.ranks[i].wait_caused_ns);
    }
    const auto bandwidth = profiler::analyze_collective_bandwidth(whole);
    ASSERT_EQ(got->bandwidth.size(), bandwidth.size());
    for (std::size_t i = 0; i < bandwidth.size(); ++i) {
        EXPECT_EQ(got->bandwidth[i].kind, bandwidth[i].kind);
        EXPECT_EQ(got->bandwidth[i].bytes, bandwidth[i].bytes);
        EXPECT_EQ(got->bandwidth[i].calls, bandwidth[i].calls);
        EXPECT_EQ(got->bandwidth[i].total_ns, bandwidth[i].total_ns);
    }
    const auto exposed = profiler::analyze_exposed_communication(whole);
    ASSERT_EQ(got->exposed.size(), exposed.size());
    for (std::size_t i = 0; i < exposed.size(); ++i) {
        EXPECT_EQ(got->exposed[i].rank, exposed[i].rank);
        EXPECT_EQ(got->exposed[i].step, exposed[i].step);
        EXPECT_EQ(got->exposed[i].step_start_ns, exposed[i].step_start_ns);
        EXPECT_EQ(got->exposed[i].communication_ns, exposed[i].communication_ns);
        EXPECT_EQ(got->exposed[i].exposed_ns, exposed[i].exposed_ns);
    }
}

// A job's kernel breakdown per rank against each rank's trace (kernel_rows(run)'s); the
// longest instance is the same activity, by its index in the whole trace.
void expect_same_rank_kernels(const StoredRunAnalysis& got, const profiler::Trace& whole) {
    const auto ranks = profiler::ranks_of(whole);
    if (ranks.size() < 2) {
        EXPECT_TRUE(got.kernels_by_rank.empty());
        return;
    }
    for (const std::int32_t rank : ranks) {
        SCOPED_TRACE("rank " + std::to_string(rank));
        const profiler::Trace one = profiler::trace_of_rank(whole, rank);
        const auto want = profiler::analyze_kernel_breakdown(one);
        const auto it = got.kernels_by_rank.find(rank);
        if (it == got.kernels_by_rank.end()) {
            EXPECT_TRUE(want.by_name.empty());
            continue;
        }
        const profiler::KernelBreakdown& k = it->second;
        EXPECT_EQ(k.total_ns, want.total_ns);
        ASSERT_EQ(k.by_name.size(), want.by_name.size());
        for (std::size_t i = 0; i < want.by_name.size(); ++i) {
            EXPECT_EQ(k.by_name[i].name, want.by_name[i].name);
            expect_same(k.by_name[i].stats, want.by_name[i].stats);
            const profiler::Activity& longest = whole.activities.at(k.by_name[i].longest);
            const profiler::Activity& want_longest = one.activities.at(want.by_name[i].longest);
            EXPECT_EQ(whole.lanes.at(longest.lane).rank, rank);
            EXPECT_EQ(longest.start_ns, want_longest.start_ns);
            EXPECT_EQ(longest.correlation, want_longest.correlation);
        }
    }
}

void expect_same_as_whole(const StoredRunAnalysis& got, const profiler::Trace& whole) {
    expect_same_job(got.job, whole);
    expect_same_rank_kernels(got, whole);
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
    // `analyze --mode hta`, any trace.
    const StoredHtaBreakdown hta = analyze_stored_hta(db, id, *load_trace_header(db, id));
    EXPECT_EQ(hta.activity_count, whole->activities.size());
    const auto want_hta =
        profiler::analyze_rank_time_breakdown(*whole, {}, profiler::BreakdownDefinitions::Hta);
    EXPECT_EQ(hta.ranks.size(), want_hta.size());
    for (std::size_t i = 0; i < want_hta.size() && i < hta.ranks.size(); ++i) {
        EXPECT_EQ(hta.ranks[i].rank, want_hta[i].rank);
        EXPECT_EQ(hta.ranks[i].span_ns, want_hta[i].span_ns);
        EXPECT_EQ(hta.ranks[i].idle_ns, want_hta[i].idle_ns);
        EXPECT_EQ(hta.ranks[i].compute_ns, want_hta[i].compute_ns);
        EXPECT_EQ(hta.ranks[i].non_compute_ns, want_hta[i].non_compute_ns);
        EXPECT_EQ(hta.ranks[i].communication_ns, want_hta[i].communication_ns);
        EXPECT_EQ(hta.ranks[i].overlap_ns, want_hta[i].overlap_ns);
        EXPECT_EQ(hta.ranks[i].work_count, want_hta[i].work_count);
    }
    // Each rank of a job (`analyze --rank N`) against that rank's trace_of_rank.
    const auto ranks = profiler::ranks_of(*whole);
    for (std::size_t i = 0; streamed && ranks.size() > 1 && i < ranks.size(); ++i) {
        SCOPED_TRACE("--rank " + std::to_string(ranks[i]));
        std::optional<profiler::Trace> rank_header = load_trace_header(db, id);
        const auto one = analyze_stored_run(db, id, *rank_header, ranks[i]);
        const profiler::Trace want = profiler::trace_of_rank(*whole, ranks[i]);
        EXPECT_EQ(one.has_value(), !needs_whole_trace(want));
        // `analyze --mode hta --rank N`.
        const StoredHtaBreakdown rank_hta =
            analyze_stored_hta(db, id, *load_trace_header(db, id), ranks[i]);
        const auto want_rank_hta =
            profiler::analyze_rank_time_breakdown(want, {}, profiler::BreakdownDefinitions::Hta);
        EXPECT_EQ(rank_hta.activity_count, want.activities.size());
        EXPECT_EQ(rank_hta.lanes, want.lanes.size());
        EXPECT_EQ(rank_hta.ranks.size(), want_rank_hta.size());
        for (std::size_t r = 0; r < rank_hta.ranks.size() && r < want_rank_hta.size(); ++r) {
            EXPECT_EQ(rank_hta.ranks[r].rank, want_rank_hta[r].rank);
            EXPECT_EQ(rank_hta.ranks[r].span_ns, want_rank_hta[r].span_ns);
            EXPECT_EQ(rank_hta.ranks[r].idle_ns, want_rank_hta[r].idle_ns);
            EXPECT_EQ(rank_hta.ranks[r].compute_ns, want_rank_hta[r].compute_ns);
            EXPECT_EQ(rank_hta.ranks[r].non_compute_ns, want_rank_hta[r].non_compute_ns);
            EXPECT_EQ(rank_hta.ranks[r].communication_ns, want_rank_hta[r].communication_ns);
            EXPECT_EQ(rank_hta.ranks[r].overlap_ns, want_rank_hta[r].overlap_ns);
            EXPECT_EQ(rank_hta.ranks[r].work_count, want_rank_hta[r].work_count);
        }
        if (one) {
            EXPECT_EQ(one->header.lanes.size(), want.lanes.size());
            EXPECT_EQ(one->header.collectives.size(), want.collectives.size());
            expect_same_as_whole(*one, want);
        }
    }
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

// A shared job's files imported as one trace, as `trainscope import DIR` does.
profiler::Trace shared_job(const std::string& set) {
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(shared("multirank/" + set))) {
        if (entry.path().extension() == ".gz")
            paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    std::vector<profiler::RankTraceFile> files;
    for (const auto& p : paths)
        files.push_back({p, profiler::import_kineto_trace(p)});
    profiler::JobAssemblyOptions options;
    options.allow_partial = true;  // the sampled set holds 2 of 128 ranks
    return profiler::assemble_job(std::move(files), options).trace;
}

TEST(StoredRunAnalysis, AJobsAnalysisStreamedEqualsTheWholeTraceOnTheSharedJobs) {
    for (const char* set : {"param_dlrm_kineto", "hta_trace_filter_sampled"}) {
        const profiler::Trace job = shared_job(set);
        ASSERT_GT(profiler::ranks_of(job).size(), 1u) << set;
        // Stragglers, exposed communication per step and the ranks' communication.
        const auto whole = profiler::analyze_job(job);
        EXPECT_FALSE(whole.stragglers.collectives.empty()) << set;
        EXPECT_FALSE(whole.exposed.empty()) << set;
        // HTA drops each rank's work launched after its last step.
        const auto hta =
            profiler::analyze_rank_time_breakdown(job, {}, profiler::BreakdownDefinitions::Hta);
        EXPECT_EQ(hta.size(), profiler::ranks_of(job).size()) << set;
        EXPECT_TRUE(check_stored(job, set));
    }
}

std::string csv_text(const CsvTable& table, const std::filesystem::path& file) {
    write_csv_table(table, file);
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// `report`'s tables of a shared job from one read of its rows are byte for byte those of
// the whole read: the rows are moved out of the reach of ActivityReader (a gap in their
// rowids), which sends build_report_tables to load_trace.
TEST(StoredRunAnalysis, AJobsReportTablesStreamedEqualTheWholeRead) {
    for (const char* set : {"param_dlrm_kineto", "hta_trace_filter_sampled"}) {
        SCOPED_TRACE(set);
        const testing::TempDir dir;
        {
            ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
            RunRecord run = testing::sample_run();
            run.trace = shared_job(set);
            RunWriter(db).write(run);
        }
        const auto tables = [&dir] {
            const ResultsDatabase db(dir / "r.db", OpenMode::ReadOnly);
            RunParts parts;
            parts.steps = true;
            ReportSelection all;
            all.breakdowns = true;
            return build_report_tables(db, load_runs(db, {}, parts), all, {});
        };
        const ReportTables streamed = tables();
        testing::leave_a_rowid_gap(dir / "r.db");
        const ReportTables whole = tables();
        ASSERT_GT(whole.ranks.size(), 2u);
        ASSERT_GT(whole.kernels.size(), 2u);
        for (const auto& [name, got, want] :
             std::vector<std::tuple<std::string, const CsvTable*, const CsvTable*>>{
                 {"kernels.csv", &streamed.kernels, &whole.kernels},
                 {"nvtx.csv", &streamed.nvtx, &whole.nvtx},
                 {"ops.csv", &streamed.ops, &whole.ops},
                 {"ranks.csv", &streamed.ranks, &whole.ranks}}) {
            EXPECT_EQ(csv_text(*got, dir / ("streamed-" + name)),
                      csv_text(*want, dir / ("whole-" + name)))
                << name;
        }
        ASSERT_EQ(streamed.breakdowns.size(), 1u);
        ASSERT_EQ(whole.breakdowns.size(), 1u);
        EXPECT_EQ(streamed.breakdowns.begin()->second.total_ns,
                  whole.breakdowns.begin()->second.total_ns);
    }
}

TEST(StoredRunAnalysis, LeavesCpuTracesToTheWholeTraceAndReadsOpWorkTwice) {
    profiler::Trace base = without_annotations(
        profiler::import_kineto_trace(shared("kineto/a100_two_streams_add.json.gz")));
    ASSERT_TRUE(check_stored(base, "bare"));

    profiler::Trace job = base;
    job.lanes.back().rank = 1;
    job.world_size = 2;
    EXPECT_TRUE(check_stored(job, "two ranks"));

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

    // A job whose rank 1 holds the host ops and no GPU work: its per-rank kernel rows are
    // its ops by self time, as the whole trace gives them.
    profiler::Trace mixed = base;
    for (const auto& a : mixed.activities) {
        if (a.kind == profiler::ActivityKind::HostOp)
            mixed.lanes.at(a.lane).rank = 1;
    }
    mixed.world_size = 2;
    ASSERT_EQ(profiler::ranks_of(mixed).size(), 2u);
    ASSERT_TRUE(profiler::is_host_op_trace(profiler::trace_of_rank(mixed, 1)));
    EXPECT_FALSE(check_stored(mixed, "a rank of host ops alone"));
}

}  // namespace
}  // namespace trainscope::reports
