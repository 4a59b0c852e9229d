// Issue 14: after warm-up, a training step allocates nothing on the host inside its timed
// window. This executable replaces the global operator new with a counting one
// (counting_new.cpp, every thread's allocations); a CPU backend that reads the count where
// the window opens (start_step_timer) and where it closes (StepTimer::close) trains
// seed-cnn and ResNet-8 through the real training loop, in fp32 and fp16.
//
// oneDNN 2.6 allocates inside its own primitive execution (the argument map it builds
// from the caller's array, some parallel_nd closures), which no caller can avoid: this
// executable wraps dnnl_primitive_execute to count those apart, and the test requires
// zero of the rest (the engine, the layers, the backend and its oneDNN glue) and reports
// oneDNN's share.
// TRAINSCOPE_TRACE_ALLOCATIONS=1 prints the call stack of each allocation counted in a
// measured window outside oneDNN (to find one that a change brought in).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "counting_new.hpp"
#include "small_runs.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/backends/cpu/CpuBackend.hpp"
#include "workloads/training/TrainingSession.hpp"
#include "workloads_test_support.hpp"

namespace {

std::atomic<long> g_onednn_executions{0};

}  // namespace

// Interposes oneDNN's C entry point (the executable's definition wins over libdnnl's;
// C linkage, so the argument types need not match dnnl.h's, which this file does not
// include): counts the call and its allocations as oneDNN's own.
extern "C" int dnnl_primitive_execute(const void* primitive, void* stream, int nargs,
                                      const void* args) {
    using Execute = int (*)(const void*, void*, int, const void*);
    static const auto real = reinterpret_cast<Execute>(dlsym(RTLD_NEXT, "dnnl_primitive_execute"));
    g_onednn_executions.fetch_add(1);
    enter_library();
    const int status = real(primitive, stream, nargs, args);
    leave_library();
    return status;
}

namespace trainscope::workloads {
namespace {

// What one step's window allocated on the host, and how much of it inside oneDNN.
struct Window {
    long allocations = 0;
    long onednn_allocations = 0;
    long onednn_executions = 0;
};

// Every step's window, in step order.
std::vector<Window>& windows() {
    static std::vector<Window> all;
    return all;
}

class WindowTimer final : public StepTimer {
  public:
    void open(bool trace) {
        opened_ = host_allocations();
        opened_onednn_ = library_allocations();
        opened_executions_ = g_onednn_executions.load();
        trace_host_allocations(trace);
        clock_.start();
    }
    void close() override {
        clock_.close();
        const Window window{host_allocations() - opened_, library_allocations() - opened_onednn_,
                            g_onednn_executions.load() - opened_executions_};
        trace_host_allocations(false);
        windows().push_back(window);  // after the counts were read
    }
    std::int64_t elapsed_ns() override { return clock_.elapsed_ns(); }

  private:
    SteadyClockStepTimer clock_;
    long opened_ = 0;
    long opened_onednn_ = 0;
    long opened_executions_ = 0;
};

class WindowCountingCpu final : public CpuBackend {
  public:
    WindowCountingCpu(int threads, int warmup_steps)
        : CpuBackend(threads),
          warmup_steps_(warmup_steps),
          trace_(std::getenv("TRAINSCOPE_TRACE_ALLOCATIONS") != nullptr) {}

    StepTimer& start_step_timer() override {
        const bool measured = static_cast<int>(windows().size()) >= warmup_steps_;
        timer_.open(trace_ && measured);
        return timer_;
    }

  private:
    int warmup_steps_;
    bool trace_;
    WindowTimer timer_;
};

class WorkloadsStepAllocation : public ::testing::TestWithParam<testing::SmallRun> {};

TEST_P(WorkloadsStepAllocation, ASteadyStateStepAllocatesNothingOnTheHost) {
    const auto& [model, precision] = GetParam();
    TrainingConfig config = testing::small_synthetic_run(model, precision);
    config.backend = "window-counting-cpu";
    const int warmup = static_cast<int>(config.warmup_steps);
    register_backend(config.backend, [warmup](const BackendOptions& options) {
        return std::make_unique<WindowCountingCpu>(options.threads, warmup);
    });
    windows().clear();
    windows().reserve(static_cast<std::size_t>(config.steps));
    run_training(config, nullptr);

    const std::vector<Window> steps = windows();
    ASSERT_EQ(steps.size(), static_cast<std::size_t>(config.steps));
    // The first window fills the pool and the per-shape caches: it does allocate outside
    // oneDNN, which shows the counter sees the step.
    EXPECT_GT(steps.front().allocations - steps.front().onednn_allocations, 0);
    for (std::size_t step = static_cast<std::size_t>(warmup); step < steps.size(); ++step) {
        const Window& window = steps[step];
        // The wrapper sees oneDNN's convolutions, so what it sets apart is oneDNN's.
        EXPECT_GT(window.onednn_executions, 0) << "step " << step;
        EXPECT_EQ(window.allocations - window.onednn_allocations, 0)
            << "host allocations outside oneDNN inside the timed window of step " << step
            << " (after " << warmup << " warm-up steps); "
            << "TRAINSCOPE_TRACE_ALLOCATIONS=1 shows where";
    }
    const Window& last = steps.back();
    RecordProperty("onednn_executions_per_step", std::to_string(last.onednn_executions));
    RecordProperty("onednn_allocations_per_step", std::to_string(last.onednn_allocations));
    std::printf(
        "%s %s: per steady-state step %ld host allocations, all %ld inside oneDNN's %ld "
        "primitive executions\n",
        model.c_str(), precision.c_str(), last.allocations, last.onednn_allocations,
        last.onednn_executions);
}

INSTANTIATE_TEST_SUITE_P(ModelsAndPrecisions, WorkloadsStepAllocation,
                         testing::seed_cnn_and_resnet_fp32_fp16(), testing::small_run_name);

}  // namespace
}  // namespace trainscope::workloads
