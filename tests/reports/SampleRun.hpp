#pragma once

#include <cstdint>

#include "reports/store/RunRecord.hpp"

namespace trainscope::testing {

// A run with every part filled, including a small trace with two lanes.
inline reports::RunRecord sample_run() {
    reports::RunRecord run;
    run.cell_key = "model=seed-cnn;precision=fp32;batch=64";
    run.started_utc = "2026-11-21T10:00:00Z";
    run.finished_utc = "2026-11-21T10:01:00Z";
    run.axes.framework = "trainscope";
    run.axes.model = "seed-cnn";
    run.axes.dataset = "fashion-mnist";
    run.axes.precision = "fp32";
    run.axes.batch = 64;
    run.axes.optimizer = "adam";
    run.axes.learning_rate = 0.001;
    run.axes.backend = "cpu";
    run.axes.device = "n/a";
    run.axes.allocator = "device";
    run.axes.host_memory = "n/a";
    run.axes.transfer = "n/a";
    run.axes.placement = "n/a";
    run.axes.activations = "keep";
    run.axes.cuda_graph = "n/a";
    run.axes.trace_level = "off";
    run.axes.threads = 2;
    run.axes.seed = 7;
    run.environment = {{"host", "test-host"}, {"cpu_model", "Test CPU, 2 cores"}};
    run.metrics = {{"images_per_s", 12345.678901234, "images/s"},
                   {"step_ms_median", 5.25, "ms"},
                   {"test_accuracy", 0.8512, ""},
                   {"peak_mem_bytes", 1048576.0, "bytes"}};
    for (int i = 0; i < 10; ++i) {
        run.steps.push_back({i, 0, 5'000'000 + i * 1000, 2.3 - 0.1 * i, 1.0, false, i < 2});
    }
    run.evaluations.push_back({10, 0, 50'000'000, 0.8512, 0.41});
    profiler::Trace trace;
    trace.base_ns = 1'000'000'000;
    trace.capture_end_ns = 10'000;
    trace.dropped_records = 3;
    trace.source_clock_offset_ns = 1'700'000'000'000'000'000;
    trace.metadata["source"] = "test";
    const auto gpu = trace.add_lane({profiler::LaneKind::GpuStream, 0, 7, 1, "GPU 0 stream 7"});
    const auto host = trace.add_lane({profiler::LaneKind::HostThread, -1, 42, 1, "main"});
    profiler::Activity launch;
    launch.kind = profiler::ActivityKind::RuntimeApi;
    launch.lane = host;
    launch.start_ns = 100;
    launch.end_ns = 150;
    launch.name = trace.strings.intern("cudaLaunchKernel");
    launch.correlation = 9;
    profiler::Activity kernel;
    kernel.kind = profiler::ActivityKind::Kernel;
    kernel.lane = gpu;
    kernel.start_ns = 200;
    kernel.end_ns = 900;
    kernel.name = trace.strings.intern("implicit_convolve_sgemm, \"quoted\"");
    kernel.correlation = 9;
    kernel.grid = {128, 1, 1};
    kernel.block = {256, 1, 1};
    kernel.registers_per_thread = 64;
    kernel.shared_memory_bytes = 4096;
    kernel.device = 0;
    trace.activities = {launch, kernel};
    trace.counters.push_back({"gpu_utilization", "%", 0, {{0, 10.0}, {10'000, 95.5}}});
    run.trace = std::move(trace);
    return run;
}

// sample_run() whose trace holds `kernels` copies of its kernel, kernel i from i * 100 to
// i * 100 + 50 ns: a run of many of the readers' chunks.
inline reports::RunRecord sample_run_of_kernels(std::int64_t kernels) {
    reports::RunRecord run = sample_run();
    profiler::Trace& trace = *run.trace;
    const profiler::Activity kernel = trace.activities.back();
    trace.activities.clear();
    for (std::int64_t i = 0; i < kernels; ++i) {
        profiler::Activity a = kernel;
        a.start_ns = i * 100;
        a.end_ns = a.start_ns + 50;
        trace.activities.push_back(a);
    }
    return run;
}

}  // namespace trainscope::testing
