// How fast a run's trace goes into and out of the results database. The target: a
// trace of 1,000,000 activities writes in under 2 s on the 2-core development machine.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "profiler/trace/Trace.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/TraceStore.hpp"

namespace {

using namespace trainscope;

// Shaped like a real training trace: kernels on four streams with their launches on two
// host threads, a few hundred distinct names.
profiler::Trace make_trace(std::int64_t activities) {
    profiler::Trace trace;
    std::vector<profiler::LaneId> streams;
    for (int s = 0; s < 4; ++s) {
        streams.push_back(trace.add_lane({profiler::LaneKind::GpuStream, 0, 7 + s, 1, "stream"}));
    }
    const auto host = trace.add_lane({profiler::LaneKind::HostThread, -1, 100, 1, "main"});
    std::vector<profiler::StringId> names;
    for (int i = 0; i < 300; ++i)
        names.push_back(trace.strings.intern("kernel_" + std::to_string(i)));
    const auto launch = trace.strings.intern("cudaLaunchKernel");
    trace.activities.reserve(static_cast<std::size_t>(activities));
    for (std::int64_t i = 0; i < activities; ++i) {
        profiler::Activity a;
        const bool is_launch = i % 2 == 0;
        a.kind = is_launch ? profiler::ActivityKind::RuntimeApi : profiler::ActivityKind::Kernel;
        a.lane = is_launch ? host : streams[static_cast<std::size_t>(i / 2 % 4)];
        a.start_ns = i * 1000;
        a.end_ns = a.start_ns + 800;
        a.name = is_launch ? launch : names[static_cast<std::size_t>(i % 300)];
        a.correlation = static_cast<std::uint64_t>(i / 2 + 1);
        a.grid = {128, 1, 1};
        a.block = {256, 1, 1};
        a.registers_per_thread = 32;
        a.device = is_launch ? -1 : 0;
        trace.activities.push_back(a);
    }
    return trace;
}

std::filesystem::path scratch_db() {
    return std::filesystem::temp_directory_path() /
           ("trainscope-bench-" + std::to_string(getpid()) + ".db");
}

void remove_db(const std::filesystem::path& path) {
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(path.string() + suffix);
}

void BM_WriteRunWithTrace(benchmark::State& state) {
    reports::RunRecord run;
    run.cell_key = "bench";
    run.trace = make_trace(state.range(0));
    const auto path = scratch_db();
    for (auto _ : state) {
        state.PauseTiming();
        remove_db(path);
        reports::ResultsDatabase db(path, reports::OpenMode::CreateOrOpen);
        state.ResumeTiming();
        reports::RunWriter(db).write(run);
    }
    remove_db(path);
    state.counters["activities_per_s"] = benchmark::Counter(
        static_cast<double>(state.range(0)) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate);
}
BENCHMARK(BM_WriteRunWithTrace)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

void BM_LoadTrace(benchmark::State& state) {
    reports::RunRecord run;
    run.cell_key = "bench";
    run.trace = make_trace(state.range(0));
    const auto path = scratch_db();
    remove_db(path);
    std::int64_t id = 0;
    {
        reports::ResultsDatabase db(path, reports::OpenMode::CreateOrOpen);
        id = reports::RunWriter(db).write(run);
    }
    reports::ResultsDatabase db(path, reports::OpenMode::ReadOnly);
    for (auto _ : state)
        benchmark::DoNotOptimize(reports::load_trace(db, id));
    remove_db(path);
}
BENCHMARK(BM_LoadTrace)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
