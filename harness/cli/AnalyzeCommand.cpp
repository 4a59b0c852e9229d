#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "harness/cli/Commands.hpp"
#include "harness/cli/JobAnalysisText.hpp"
#include "harness/cli/NumberCheck.hpp"
#include "harness/cli/RooflineText.hpp"
#include "harness/cli/RunTraceLoader.hpp"
#include "harness/cli/UsageError.hpp"
#include "profiler/analysis/CopyComputeOverlapAnalysis.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/KernelBreakdownAnalysis.hpp"
#include "profiler/analysis/NvtxProjectionAnalysis.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "profiler/analysis/StepApiCounts.hpp"
#include "profiler/analysis/TensorCoreAnalysis.hpp"
#include "profiler/analysis/TraceHealthAnalysis.hpp"
#include "profiler/analysis/TracelensTimeline.hpp"
#include "profiler/sqlite/SqliteReadSnapshot.hpp"
#include "reports/csv/TerminalText.hpp"
#include "reports/metrics/MetricTags.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/TraceStore.hpp"
#include "reports/trace/StoredRunAnalysis.hpp"

namespace trainscope::harness {

namespace {

struct AnalyzeOptions {
    std::string database;
    std::int64_t run = 0;
    std::string mode = "default";
    double gap_threshold_us = 10.0;
    int top = 15;
    std::int32_t rank = -1;  // one rank of a job; -1 all
};

std::string ms(std::int64_t ns) {
    return fmt::format("{:.3f} ms", static_cast<double>(ns) * 1e-6);
}

// A job's ranks each number their GPUs from 0: the rank joins the name where there are
// several.
std::string device_name(const profiler::Trace& trace, std::int32_t rank, std::int32_t device) {
    const std::string name = device < 0 ? "CPU" : fmt::format("device {}", device);
    return trace.names_devices_by_rank() ? fmt::format("rank {} {}", rank, name) : name;
}

profiler::GpuBusyOptions busy_options(const AnalyzeOptions& options) {
    profiler::GpuBusyOptions busy;
    busy.short_gap_threshold_ns = static_cast<std::int64_t>(options.gap_threshold_us * 1000.0);
    return busy;
}

// `trace`: the devices' names (a trace or its header).
void print_busy(const profiler::Trace& trace, const std::vector<profiler::GpuBusy>& devices,
                const AnalyzeOptions& options, const char* what) {
    std::printf("%s busy over the span of its work (union of %s intervals):\n", what,
                std::string_view(what) == "GPU" ? "kernel" : "op");
    if (devices.empty())
        std::printf("  no kernels in this trace\n");
    for (const auto& d : devices) {
        std::printf(
            "  %s: span %s, busy %s (%.2f %%), idle %s: %lld gaps < %.0f us (%s), "
            "%lld longer (%s)\n",
            device_name(trace, d.rank, d.device).c_str(), ms(d.span_ns).c_str(),
            ms(d.busy_ns).c_str(), 100.0 * d.busy_fraction, ms(d.idle_ns).c_str(),
            static_cast<long long>(d.short_gap_count), options.gap_threshold_us,
            ms(d.short_gap_idle_ns).c_str(), static_cast<long long>(d.long_gap_count),
            ms(d.long_gap_idle_ns).c_str());
    }
}

void print_breakdown(const profiler::KernelBreakdown& breakdown, int top, const char* what) {
    std::printf("\n%s time by category (summed durations, %s in all):\n", what,
                ms(breakdown.total_ns).c_str());
    for (const auto& c : breakdown.by_category) {
        std::printf("  %-14s %8lld  %14s  %6.2f %%\n",
                    std::string(profiler::to_string(c.category)).c_str(),
                    static_cast<long long>(c.stats.count), ms(c.stats.total_ns).c_str(),
                    100.0 * c.stats.share);
    }
    std::printf("\nTop %s by total time:\n  %8s %14s %12s %12s %12s %7s  %-12s %s\n",
                std::string_view(what) == "GPU" ? "kernels" : "ops", "count", "total", "mean",
                "min", "max", "share", "category", "name");
    int shown = 0;
    for (const auto& k : breakdown.by_name) {
        if (shown++ >= top)
            break;
        std::string name = reports::printable_text(k.name);
        if (name.size() > 90)
            name = name.substr(0, 87) + "...";
        std::printf("  %8lld %14s %9.3f us %9.3f us %9.3f us %6.2f%%  %-12s %s\n",
                    static_cast<long long>(k.stats.count), ms(k.stats.total_ns).c_str(),
                    k.stats.mean_ns * 1e-3, static_cast<double>(k.stats.min_ns) * 1e-3,
                    static_cast<double>(k.stats.max_ns) * 1e-3, 100.0 * k.stats.share,
                    std::string(profiler::to_string(k.category)).c_str(), name.c_str());
    }
    if (breakdown.by_name.size() > static_cast<std::size_t>(top)) {
        std::printf("  ... %zu more (--top N shows more)\n",
                    breakdown.by_name.size() - static_cast<std::size_t>(top));
    }
}

void print_overlap_and_tensor_cores(const profiler::Trace& trace,
                                    const std::vector<profiler::CopyComputeOverlap>& overlap,
                                    const profiler::TensorCoreUsage& tc) {
    std::printf("\nCopy/compute overlap:\n");
    for (const auto& o : overlap) {
        std::printf("  %s: copies %s, of which under kernels %s (%.1f %%), exposed %s\n",
                    device_name(trace, o.rank, o.device).c_str(), ms(o.copy_ns).c_str(),
                    ms(o.overlap_ns).c_str(), 100.0 * o.overlapped_copy_fraction,
                    ms(o.exposed_copy_ns).c_str());
    }
    std::printf("\nTensor cores: %lld of %lld kernels, %s of %s kernel time (%.1f %%)\n",
                static_cast<long long>(tc.tensor_core_kernel_count),
                static_cast<long long>(tc.kernel_count), ms(tc.tensor_core_ns).c_str(),
                ms(tc.kernel_ns).c_str(), 100.0 * tc.share);
}

void print_nvtx(const std::vector<profiler::NvtxRangeGpuTime>& ranges, bool cpu_ops) {
    if (ranges.empty())
        return;
    if (cpu_ops) {
        std::printf("\nNVTX ranges -> CPU time of the ops run inside them (same thread):\n");
    } else {
        std::printf("\nNVTX ranges -> GPU time of the work launched inside them:\n");
    }
    std::printf("  %-28s %8s %14s %14s %14s\n", "range", "count", "host time",
                cpu_ops ? "op time" : "kernel time", cpu_ops ? "CPU busy" : "GPU busy");
    for (const auto& t : profiler::total_nvtx_ranges_by_name(ranges)) {
        std::printf("  %-28s %8lld %14s %14s %14s\n",
                    reports::printable_text(t.name).substr(0, 28).c_str(),
                    static_cast<long long>(t.count), ms(t.host_ns).c_str(), ms(t.kernel_ns).c_str(),
                    ms(t.gpu_busy_ns).c_str());
    }
}

void print_health(const profiler::TraceHealth& h) {
    std::printf("\nTrace health: %s\n", h.healthy() ? "ok" : "CHECK");
    std::printf(
        "  dropped records %lld; refused CUPTI buffer requests %lld; GPU records without "
        "timestamps %lld; GPU work before its launch %lld (max skew %s); outside the "
        "capture window %lld; zero duration %lld; negative duration %lld; GPU work without "
        "launch %lld (CUDA-graph kernels %lld)\n",
        static_cast<long long>(h.dropped_records),
        static_cast<long long>(h.refused_buffer_requests),
        static_cast<long long>(h.records_without_timestamps),
        static_cast<long long>(h.gpu_work_before_launch), ms(h.max_clock_skew_ns).c_str(),
        static_cast<long long>(h.outside_capture_window), static_cast<long long>(h.zero_duration),
        static_cast<long long>(h.negative_duration),
        static_cast<long long>(h.gpu_work_without_launch),
        static_cast<long long>(h.graph_kernels_without_launch));
}

const reports::Metric* find_metric(const reports::RunRecord& run, std::string_view name) {
    for (const auto& m : run.metrics) {
        if (m.name == name)
            return &m;
    }
    return nullptr;
}

// What the engine counted inside each step's timed window (CountingBackend), as stored
// in the run's metrics: printed for every run trainscope trained, traced or not.
void print_engine_step_anatomy(const reports::RunRecord& run) {
    const reports::Metric* calls = find_metric(run, reports::metric_tag::backend_calls_per_step);
    std::printf(
        "Step anatomy, counted by the engine inside each step's timed window (mean per "
        "measured step):\n");
    if (calls == nullptr) {
        std::printf(
            "  no counts: the run was imported, failed, or recorded before they were "
            "kept\n\n");
        return;
    }
    const auto value = [&run](std::string_view name) {
        const reports::Metric* m = find_metric(run, name);
        return m == nullptr ? 0.0 : m->value;
    };
    std::printf(
        "  backend allocations %g, frees %g (below the pool); tensors made %g, released %g; "
        "waits for the backend %g; host-to-device copies %g; backend calls %g\n",
        value(reports::metric_tag::allocations_per_step),
        value(reports::metric_tag::frees_per_step),
        value(reports::metric_tag::tensor_allocations_per_step),
        value(reports::metric_tag::tensor_frees_per_step),
        value(reports::metric_tag::syncs_per_step), value(reports::metric_tag::h2d_copies_per_step),
        calls->value);
    std::string ops;
    constexpr std::string_view prefix = "op_";
    constexpr std::string_view suffix = "_per_step";
    for (const auto& m : run.metrics) {
        const std::string_view name = m.name;
        if (name.size() > prefix.size() + suffix.size() && name.substr(0, 3) == prefix &&
            name.substr(name.size() - suffix.size()) == suffix) {
            ops += fmt::format("{}{} {:g}", ops.empty() ? "" : ", ",
                               name.substr(3, name.size() - 3 - suffix.size()), m.value);
        }
    }
    std::printf("  by operation: %s\n", ops.c_str());
    if (const reports::Metric* data = find_metric(run, reports::metric_tag::data_ms_median)) {
        std::printf("  data staging, outside the window: median %.3f ms per step\n", data->value);
    }
    std::printf("\n");
}

// The tensor-memory peak by class (reports::memory_peak_lines, as the run summary
// prints it).
void print_memory_peak(const reports::RunRecord& run) {
    if (!run.memory_peak)
        return;
    std::printf("Memory by tensor class%s:\n",
                run.other_rank_memory_peaks.empty() ? "" : " (rank 0)");
    for (const std::string& line : reports::memory_peak_lines(*run.memory_peak))
        std::printf("  %s\n", line.c_str());
    for (const reports::MemoryPeak& peak : run.other_rank_memory_peaks) {
        std::printf("Memory by tensor class (rank %d):\n", peak.rank);
        for (const std::string& line : reports::memory_peak_lines(peak))
            std::printf("  %s\n", line.c_str());
    }
    std::printf("\n");
}

void print_spread_line(const char* what, const profiler::ApiCallSpread& s) {
    const auto c = [](const profiler::CountSpread& x) {
        return x.min == x.max ? fmt::format("{}", x.min)
                              : fmt::format("{:g} ({}-{})", x.median, x.min, x.max);
    };
    std::printf(
        "  %-10s kernels launched %s; runtime calls %s: cudaMalloc* %s, cudaFree* %s, "
        "cuda*Synchronize %s, cudaMemcpy* %s\n",
        what, c(s.kernel_launches).c_str(), c(s.runtime_calls).c_str(), c(s.allocations).c_str(),
        c(s.frees).c_str(), c(s.synchronizations).c_str(), c(s.memcpys).c_str());
}

// The same question asked of a CUDA trace's runtime API records, per NVTX "step" range.
// `runtime_api_records`: has_runtime_api_records; `steps`: count_api_calls_per_step's.
void print_trace_step_anatomy(bool runtime_api_records,
                              const std::vector<profiler::StepApiCounts>& steps,
                              std::size_t warmup_steps) {
    if (!runtime_api_records || steps.empty())
        return;
    const std::size_t skip = warmup_steps < steps.size() ? warmup_steps : 0;
    std::printf(
        "\nStep anatomy from the trace's CUDA API records, per NVTX step range (median "
        "(min-max) over %zu steps, %zu warm-up steps left out; \"step\" also holds the "
        "wait after the timed window, \"window\" is the timed part alone):\n",
        steps.size() - skip, skip);
    print_spread_line("step", profiler::spread_of(steps, skip, profiler::StepPart::own));
    if (std::all_of(steps.begin(), steps.end(), [](const auto& s) { return s.has_window; }))
        print_spread_line("window", profiler::spread_of(steps, skip, profiler::StepPart::window));
    print_spread_line("data load", profiler::spread_of(steps, skip, profiler::StepPart::data));
}

std::size_t warmup_steps(const reports::RunRecord& run) {
    std::size_t warmup = 0;
    for (const auto& step : run.steps)
        warmup += step.warmup ? 1 : 0;
    return warmup;
}

void print_run_line(const AnalyzeOptions& options, std::size_t activities, std::size_t lanes) {
    std::printf("Run %lld%s: %zu activities, %zu lanes\n\n", static_cast<long long>(options.run),
                options.rank >= 0 ? fmt::format(", rank {}", options.rank).c_str() : "", activities,
                lanes);
}

// The default mode from one read of the stored rows (reports::analyze_stored_run): the
// same sections as print_whole_trace prints for such a trace, from the same accumulators.
void print_streamed(const reports::StoredRunAnalysis& a, const reports::RunRecord& run,
                    const AnalyzeOptions& options) {
    print_run_line(options, a.activity_count, a.header.lanes.size());
    if (a.job)
        print_job_analysis(a.header, *a.job, options.top);
    print_busy(a.header, profiler::analyze_gpu_busy(a.work, busy_options(options)), options, "GPU");
    print_breakdown(a.kernels, options.top, "GPU");
    print_overlap_and_tensor_cores(a.header, profiler::analyze_copy_compute_overlap(a.work),
                                   a.tensor_cores);
    print_trace_step_anatomy(a.runtime_api_records, a.steps, warmup_steps(run));
    print_nvtx(a.nvtx_ranges, false);
    print_roofline(reports::op_roofline(a.op_work.by_name, reports::roofs_of(run.metrics)), run,
                   options.top);
    print_health(a.health);
}

int print_whole_trace(const profiler::Trace& trace, const reports::RunRecord& run,
                      const AnalyzeOptions& options) {
    print_run_line(options, trace.activities.size(), trace.lanes.size());
    if (options.mode == "hta") {
        print_hta_analysis(
            profiler::analyze_rank_time_breakdown(trace, {}, profiler::BreakdownDefinitions::Hta));
        return 0;
    }
    if (options.mode == "tracelens") {
        std::printf("GPU timeline (TraceLens definitions):\n  %-24s %22s %22s\n", "type", "time ms",
                    "percent");
        for (const auto& row : profiler::tracelens_gpu_timeline(trace)) {
            std::printf("  %-24s %22.15g %22.15g\n", row.type.c_str(), row.time_ms, row.percent);
        }
        return 0;
    }
    if (profiler::ranks_of(trace).size() > 1)
        print_job_analysis(trace, profiler::analyze_job(trace), options.top);
    const bool cpu_ops = profiler::is_host_op_trace(trace);
    if (cpu_ops) {
        // A CPU-backend run: its ops play the part of kernels, on "device -1" (the CPU).
        std::printf(
            "CPU backend trace: backend ops are analysed as the device's work (device -1 = "
            "CPU)\n\n");
        const profiler::Trace ops = profiler::host_ops_as_device_work(trace);
        print_busy(ops, profiler::analyze_gpu_busy(ops, busy_options(options)), options, "CPU");
        print_breakdown(profiler::analyze_kernel_breakdown(ops), options.top, "CPU");
    } else {
        print_busy(trace, profiler::analyze_gpu_busy(trace, busy_options(options)), options, "GPU");
        print_breakdown(profiler::analyze_kernel_breakdown(trace), options.top, "GPU");
        print_overlap_and_tensor_cores(trace, profiler::analyze_copy_compute_overlap(trace),
                                       profiler::analyze_tensor_core_usage(trace));
        const bool runtime_api = profiler::has_runtime_api_records(trace);
        print_trace_step_anatomy(runtime_api,
                                 runtime_api ? profiler::count_api_calls_per_step(trace)
                                             : std::vector<profiler::StepApiCounts>{},
                                 warmup_steps(run));
    }
    print_nvtx(profiler::project_nvtx_ranges_to_gpu(trace), cpu_ops);
    print_roofline(reports::op_roofline(trace, reports::roofs_of(run.metrics)), run, options.top);
    print_health(profiler::analyze_trace_health(trace));
    return 0;
}

// Whether `rank` (-1: the whole run) is one the trace has.
bool has_rank(const profiler::Trace& trace, std::int32_t rank) {
    const auto ranks = profiler::ranks_of(trace);
    return rank < 0 || std::find(ranks.begin(), ranks.end(), rank) != ranks.end();
}

int execute(const AnalyzeOptions& options) {
    std::optional<reports::RunRecord> run;
    std::optional<profiler::Trace> loaded;
    std::optional<reports::StoredRunAnalysis> streamed;
    std::optional<reports::StoredHtaBreakdown> hta;
    {
        const reports::ResultsDatabase db(options.database, reports::OpenMode::ReadOnly);
        // The run, its header and its rows (read twice for op FLOPs) from one state of the
        // file, whatever a resumed matrix commits meanwhile.
        const profiler::SqliteReadSnapshot snapshot(db);
        reports::RunParts parts;
        parts.steps = true;
        run = reports::load_run(db, options.run, parts);  // names a missing run
        // The default mode, of a whole run or of one of its ranks, reads the rows once
        // without holding them where its trace allows (analyze_stored_run); the other
        // modes, and a rank the run does not have (refused below), read it whole.
        if (options.mode == "default") {
            std::optional<profiler::Trace> header = reports::load_trace_header(db, options.run);
            if (header && has_rank(*header, options.rank))
                streamed = reports::analyze_stored_run(db, options.run, *header, options.rank);
            if (header && !streamed)
                loaded = reports::load_trace(db, options.run);
        } else if (options.mode == "hta") {
            // HTA's breakdown of a run, or of one of its ranks, from one read of its rows.
            const std::optional<profiler::Trace> header =
                reports::load_trace_header(db, options.run);
            if (header && has_rank(*header, options.rank))
                hta = reports::analyze_stored_hta(db, options.run, *header, options.rank);
            else if (header)
                loaded = reports::load_trace(db, options.run);
        } else {
            loaded = reports::load_trace(db, options.run);
        }
    }
    const bool other_tool = options.mode == "tracelens" || options.mode == "hta";
    if (!other_tool) {
        print_engine_step_anatomy(*run);
        print_memory_peak(*run);
    }
    if (streamed) {
        print_streamed(*streamed, *run, options);
        return 0;
    }
    if (hta) {
        print_run_line(options, hta->activity_count, hta->lanes);
        print_hta_analysis(hta->ranks);
        return 0;
    }
    if (!loaded) {
        if (other_tool)
            (void)load_run_trace(options.database, options.run);  // says how to record one
        std::printf(
            "No trace for run %lld: record one with `trainscope run --trace "
            "kernels|full` (full adds the API records counted per step), or import "
            "one with `trainscope import`\n",
            static_cast<long long>(options.run));
        return 0;
    }
    if (options.rank >= 0) {
        const auto ranks = profiler::ranks_of(*loaded);
        if (std::find(ranks.begin(), ranks.end(), options.rank) == ranks.end()) {
            throw UsageError(fmt::format(
                "run {} has no rank {}: its trace holds ranks {}-{}; give one of them to --rank",
                options.run, options.rank, ranks.front(), ranks.back()));
        }
        loaded = profiler::trace_of_rank(*loaded, options.rank);
    }
    return print_whole_trace(*loaded, *run, options);
}

}  // namespace

CommandAction add_analyze_command(CLI::App& app) {
    auto options = std::make_shared<AnalyzeOptions>();
    CLI::App* cmd = app.add_subcommand(
        "analyze",
        "What a step of a run is made of (allocations, waits, copies and backend calls per "
        "step, for any run) and where the time went in its trace: GPU busy and idle, kernels "
        "by name and category, copy/compute overlap, tensor cores, calls per step, NVTX "
        "ranges, trace health.");
    cmd->add_option("database", options->database, "results database")->required();
    cmd->add_option("--run", options->run, "run id")->required();
    cmd->add_option("--mode", options->mode,
                    "default; tracelens: TraceLens's GPU-timeline definitions; hta: Holistic Trace "
                    "Analysis's temporal breakdown and overlap per rank (docs/profiler.md)")
        ->check(CLI::IsMember({"default", "tracelens", "hta"}))
        ->capture_default_str();
    cmd->add_option("--rank", options->rank,
                    "analyse one rank of a distributed job's run (default: the job, then "
                    "every rank pooled)")
        ->check(number_check(0, false));  // ranks count from 0
    cmd->add_option("--gap-threshold-us", options->gap_threshold_us,
                    "idle gaps shorter than this count as launch latency")
        ->check(number_check(0, true))
        ->capture_default_str();
    cmd->add_option("--top", options->top, "kernels to list")
        ->check(number_check(0, true))
        ->capture_default_str();
    return [options]() { return execute(*options); };
}

}  // namespace trainscope::harness
