#pragma once

#include <cmath>
#include <filesystem>
#include <string>

#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunRecord.hpp"
#include "reports/store/RunWriter.hpp"

namespace trainscope::testing {

// Names that CSV, JSON, Markdown and HTML must carry unharmed: a comma, quotes, a line
// break, non-ASCII text and spreadsheet formulas.
inline const std::string kAwkwardKernel = "conv2d<float, 3>::\"fwd\"\nüber→λ";
inline const std::string kFormulaKernel = "=SUM(A1:A9)+cmd|' /C calc'!A0";
inline const std::string kMinusKernel = "-sgemm_tensorop_128x128";
inline const std::string kAwkwardError = "out of memory, \"cudaMalloc\"\nat step 3 — Ünïcode";

// A small, fixed GPU trace: one host thread launching a convolution, a tensor-core GEMM,
// an awkwardly named kernel twice and a copy, under NVTX ranges "step" > "forward".
inline profiler::Trace report_trace(std::int64_t scale) {
    using profiler::Activity;
    using profiler::ActivityKind;
    profiler::Trace trace;
    trace.base_ns = 1'000'000'000;
    trace.capture_end_ns = 100'000;
    const auto gpu = trace.add_lane({profiler::LaneKind::GpuStream, 0, 7, 1, "GPU 0 stream 7"});
    const auto host = trace.add_lane({profiler::LaneKind::HostThread, -1, 42, 1, "main"});
    const auto nvtx = trace.add_lane({profiler::LaneKind::Nvtx, -1, 42, 1, "NVTX main"});
    auto range = [&](const std::string& name, std::int64_t start, std::int64_t end,
                     std::uint16_t depth) {
        Activity a;
        a.kind = ActivityKind::NvtxRange;
        a.lane = nvtx;
        a.start_ns = start;
        a.end_ns = end;
        a.depth = depth;
        a.name = trace.strings.intern(name);
        trace.activities.push_back(a);
    };
    std::uint64_t correlation = 0;
    std::int64_t t = 1000;
    auto launch = [&](ActivityKind kind, const std::string& name, std::int64_t duration,
                      std::int32_t grid, std::int32_t registers) {
        ++correlation;
        Activity api;
        api.kind = ActivityKind::RuntimeApi;
        api.lane = host;
        api.start_ns = t;
        api.end_ns = t + 100;
        api.name = trace.strings.intern(kind == ActivityKind::Kernel ? "cudaLaunchKernel"
                                                                     : "cudaMemcpyAsync");
        api.correlation = correlation;
        trace.activities.push_back(api);
        Activity work;
        work.kind = kind;
        work.lane = gpu;
        work.start_ns = t + 500;
        work.end_ns = t + 500 + duration * scale;
        work.name = trace.strings.intern(name);
        work.correlation = correlation;
        work.device = 0;
        if (kind == ActivityKind::Kernel) {
            work.grid = {grid, 2, 1};
            work.block = {256, 1, 1};
            work.registers_per_thread = registers;
            work.shared_memory_bytes = 1024 * registers;
        } else {
            work.bytes = 4096;
            work.copy_kind = profiler::CopyKind::HostToDevice;
        }
        trace.activities.push_back(work);
        t = work.end_ns + 200;
    };
    for (int step = 0; step < 2; ++step) {
        const std::int64_t step_begin = t;
        const std::int64_t forward_begin = t;
        launch(ActivityKind::Memcpy, "Memcpy HtoD (Pageable -> Device)", 1500, 0, 0);
        // The engine's op range around the launch, carrying the op's work (OpWorkPayload):
        // ops.csv and the roofline project it onto the convolution kernel.
        const std::int64_t op_begin = t - 50;
        launch(ActivityKind::Kernel, "implicit_convolve_sgemm", 4000 + step * 1000, 128 + step, 64);
        Activity op;
        op.kind = ActivityKind::HostOp;
        op.lane = host;
        op.start_ns = op_begin;
        op.end_ns = op_begin + 200;
        op.name = trace.strings.intern("conv_fwd");
        op.flops = 3.2e6;
        op.bytes = 40'000;
        trace.activities.push_back(op);
        launch(ActivityKind::Kernel, kAwkwardKernel, 700, 16, 32);
        range("forward", forward_begin, t, 1);
        launch(ActivityKind::Kernel, kMinusKernel, 2500, 64, 128);
        launch(ActivityKind::Kernel, kFormulaKernel, 300, 1, 16);
        range("step", step_begin, t, 0);
    }
    trace.capture_end_ns = t;
    trace.sort();
    return trace;
}

inline reports::RunRecord report_run(const std::string& precision, std::int64_t batch,
                                     const std::string& allocator) {
    reports::RunRecord run;
    run.cell_key =
        "precision=" + precision + ";batch=" + std::to_string(batch) + ";allocator=" + allocator;
    run.started_utc = "2026-11-21T10:00:00Z";
    run.finished_utc = "2026-11-21T10:01:00Z";
    run.axes.framework = "trainscope";
    run.axes.model = "seed-cnn";
    run.axes.dataset = "fashion-mnist";
    run.axes.precision = precision;
    run.axes.batch = batch;
    run.axes.optimizer = "adam";
    run.axes.learning_rate = 0.001;
    run.axes.backend = "cuda";
    run.axes.device = "0";
    run.axes.allocator = allocator;
    run.axes.host_memory = "pinned";
    run.axes.transfer = "sync";
    run.axes.placement = "device";
    run.axes.activations = "keep";
    run.axes.cuda_graph = "off";
    run.axes.trace_level = "full";
    run.axes.threads = 2;
    run.axes.seed = 7;
    run.environment = {{"host", "test-host"},
                       {"cpu_model", "Test CPU <2 cores> & \"more\""},
                       {"device_name", "NVIDIA Test GPU"},
                       {"git_revision", "abc1234"},
                       {"trainscope_version", "0.1.0"}};
    // Step time grows with the batch, fp16 is faster, the caching allocator slower: the
    // pivot, the chart and the golden files see distinct numbers.
    const double step_ms = (0.4 + 0.03 * static_cast<double>(batch)) *
                           (precision == "fp16" ? 0.6 : 1.0) * (allocator == "caching" ? 1.1 : 1.0);
    const double images = static_cast<double>(batch) * 1000.0 / step_ms;
    run.metrics = {
        {"images_per_s", images, "images/s"},
        {"step_ms_median", step_ms, "ms"},
        {"step_ms_mean", step_ms * 1.01, "ms"},
        {"step_ms_stdev", step_ms * 0.05, "ms"},
        {"step_ms_p5", step_ms * 0.9, "ms"},
        {"step_ms_p95", step_ms * 1.2, "ms"},
        {"step_ms_ci_low", step_ms * 0.95, "ms"},
        {"step_ms_ci_high", step_ms * 1.05, "ms"},
        {"peak_tflops", 19.5, "TFLOP/s"},
        {"peak_bandwidth_gbps", 1555.0, "GB/s"},
        {"peak_mem_bytes",
         static_cast<double>(batch) * 65536.0 * (allocator == "caching" ? 1.5 : 1.0), "bytes"},
        {"final_loss", 0.375, ""},
        {"test_accuracy", 0.8125, ""},
        {"time_to_target_s", 12.5, "s"},
        {"gpu_busy_pct", 87.5, "%"},
        {"skipped_steps", precision == "fp16" ? 1.0 : 0.0, ""},
        {"tracing_overhead_pct", 3.25, "%"},
        {"z_custom_metric", -1.5, ""}};
    for (int i = 0; i < 6; ++i) {
        const std::int64_t ns =
            std::llround(step_ms * 1e6) + (i % 3) * 10'000 + (i == 0 ? 500'000 : 0);
        run.steps.push_back({i, i / 3, ns, 2.5 - 0.25 * i, precision == "fp16" ? 65536.0 : 1.0,
                             precision == "fp16" && i == 3, i < 1, 250'000 + i * 1'000});
    }
    run.evaluations.push_back({6, 1, 30'000'000, 0.8125, 0.5});
    run.trace = report_trace(batch / 32);
    // The peak by tensor class sums to peak_mem_bytes, as the engine's does.
    const auto peak_bytes = static_cast<std::int64_t>(run.find_metric("peak_mem_bytes")->value);
    const std::int64_t input = batch * 3140;
    reports::MemoryPeak peak;
    peak.classes = {{"weights", 217640, 217640},
                    {"gradients", 217640, 217640},
                    {"optimizer_state", 435280, 435280},
                    {"activations", peak_bytes - 870560 - input, peak_bytes - 870560 - input},
                    {"workspace", 0, 0},
                    {"input_batch", input, 2 * input},
                    {"other", 0, 0}};
    peak.t_ns = 2'500'000 * (batch / 32);
    peak.phase = "backward";
    peak.op = "relu_bwd";
    run.memory_peak = peak;
    return run;
}

// The fixed database of the golden tests: a 2 × 2 matrix (fp32/fp16 × batch 32/64)
// with a second fp32/64 run under another allocator (a cell with two runs), one failed
// cell (fp16/128) and one run without a trace.
inline void write_report_database(const std::filesystem::path& path) {
    reports::ResultsDatabase db(path, reports::OpenMode::CreateOrOpen);
    reports::RunWriter writer(db);
    const auto matrix = writer.create_matrix(
        {"golden", "trainscope run --batch 32,64,128 --precision fp32,fp16", "0.1.0", "abc1234"});
    auto add = [&](reports::RunRecord run) {
        run.matrix_id = matrix;
        writer.write(run);
    };
    add(report_run("fp32", 32, "device"));
    add(report_run("fp16", 32, "device"));
    add(report_run("fp32", 64, "device"));
    add(report_run("fp16", 64, "device"));
    auto caching = report_run("fp32", 64, "caching");
    caching.trace.reset();
    caching.axes.trace_level = "off";
    caching.memory_peak->t_ns.reset();  // untraced: the breakdown without its moment
    caching.memory_peak->phase.clear();
    caching.memory_peak->op.clear();
    add(caching);
    auto failed = report_run("fp16", 128, "device");
    failed.status = reports::RunStatus::Failed;
    failed.error = kAwkwardError;
    failed.metrics.clear();
    failed.steps.clear();
    failed.evaluations.clear();
    failed.trace.reset();
    failed.memory_peak.reset();
    add(failed);
}

}  // namespace trainscope::testing
