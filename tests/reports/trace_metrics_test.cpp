// The trace's run metrics (compute_trace_metrics, made by TraceMetricsAccumulator as the
// activities pass) against the analyses that define them, on traces whose activities
// come in no order: GPU busy over the union of each device's kernels, the copy time not
// hidden under kernels, the tensor-core share, and for a CPU run the ops' busy share.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "profiler/analysis/CopyComputeOverlapAnalysis.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/TensorCoreAnalysis.hpp"
#include "reports/trace/TraceMetrics.hpp"

namespace trainscope::reports {
namespace {

using profiler::Activity;
using profiler::ActivityKind;

double metric(const std::vector<Metric>& metrics, const std::string& name) {
    for (const Metric& m : metrics) {
        if (m.name == name)
            return m.value;
    }
    ADD_FAILURE() << "no metric " << name;
    return 0.0;
}

profiler::Trace random_trace(bool gpu, unsigned seed) {
    std::mt19937 rng(seed);
    profiler::Trace t;
    t.dropped_records = 3;
    const auto stream0 = t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 0, "s0", 0});
    const auto stream1 = t.add_lane({profiler::LaneKind::GpuStream, 0, 8, 0, "s1", 0});
    const auto stream2 = t.add_lane({profiler::LaneKind::GpuStream, 1, 7, 0, "s2", 0});
    const auto thread = t.add_lane({profiler::LaneKind::HostThread, -1, 5, 5, "t", 0});
    const auto gemm = t.strings.intern("volta_h884gemm_128x64");  // tensor cores
    const auto plain = t.strings.intern("elementwise_kernel");
    const auto op = t.strings.intern("aten::add");
    for (int i = 0; i < 3000; ++i) {
        Activity a;
        a.start_ns = static_cast<std::int64_t>(rng() % 1'000'000);
        a.end_ns = a.start_ns + static_cast<std::int64_t>(rng() % 3000) - 100;  // some empty
        const unsigned pick = rng() % 6;
        if (!gpu || pick == 5) {
            a.kind = ActivityKind::HostOp;
            a.lane = thread;
            a.name = op;
        } else {
            a.lane = pick % 3 == 0 ? stream0 : pick % 3 == 1 ? stream1 : stream2;
            a.kind = pick == 4 ? ActivityKind::Memcpy : ActivityKind::Kernel;
            a.name = rng() % 2 ? gemm : plain;
            a.device = rng() % 4 == 0 ? -1 : t.lanes[a.lane].device;  // from the lane too
        }
        t.activities.push_back(a);
    }
    return t;
}

TEST(TraceMetrics, AGpuTraceGivesWhatTheAnalysesSay) {
    const profiler::Trace t = random_trace(true, 11);
    const auto metrics = compute_trace_metrics(t);
    std::int64_t span = 0, busy = 0;
    for (const auto& d : profiler::analyze_gpu_busy(t)) {
        span += d.span_ns;
        busy += d.busy_ns;
    }
    ASSERT_GT(span, 0);
    EXPECT_EQ(metric(metrics, "gpu_busy_pct"), 100.0 * static_cast<double>(busy) / span);
    EXPECT_EQ(metric(metrics, "gpu_idle_ms"), static_cast<double>(span - busy) * 1e-6);
    const auto tc = profiler::analyze_tensor_core_usage(t);
    EXPECT_EQ(metric(metrics, "kernel_count"), static_cast<double>(tc.kernel_count));
    EXPECT_EQ(metric(metrics, "kernel_time_ms"), static_cast<double>(tc.kernel_ns) * 1e-6);
    EXPECT_EQ(metric(metrics, "tensor_core_pct"), 100.0 * tc.share);
    std::int64_t copy = 0, exposed = 0;
    for (const auto& d : profiler::analyze_copy_compute_overlap(t)) {
        copy += d.copy_ns;
        exposed += d.exposed_copy_ns;
    }
    ASSERT_GT(exposed, 0);
    ASSERT_LT(exposed, copy);
    EXPECT_EQ(metric(metrics, "copy_time_ms"), static_cast<double>(copy) * 1e-6);
    EXPECT_EQ(metric(metrics, "exposed_copy_ms"), static_cast<double>(exposed) * 1e-6);
    EXPECT_EQ(metric(metrics, "dropped_records"), 3.0);
    EXPECT_EQ(metric(metrics, "trace_activities"), 3000.0);
    for (const Metric& m : metrics)
        EXPECT_NE(m.name, "cpu_op_busy_pct");
}

TEST(TraceMetrics, ACpuRunTakesItsOpsAsTheDevicesWork) {
    const profiler::Trace t = random_trace(false, 12);
    ASSERT_TRUE(profiler::is_host_op_trace(t));
    std::int64_t span = 0, busy = 0;
    for (const auto& d : profiler::analyze_gpu_busy(profiler::host_ops_as_device_work(t))) {
        span += d.span_ns;
        busy += d.busy_ns;
    }
    ASSERT_GT(busy, 0);
    ASSERT_LT(busy, span);
    const auto metrics = compute_trace_metrics(t);
    EXPECT_EQ(metric(metrics, "cpu_op_busy_pct"), 100.0 * static_cast<double>(busy) / span);
    EXPECT_EQ(metric(metrics, "kernel_count"), 0.0);
}

// Two ranks each number their GPU 0: rank 0 busy [0, 100), rank 1 busy [1000, 1100).
// Each device is busy all of its span; pooled into one "device 0" they read 200 of 1100.
// Rank 0 copies [1000, 1050) while only rank 1 computes: exposed on rank 0's device.
TEST(TraceMetrics, EachRanksDeviceIsItsOwn) {
    profiler::Trace t;
    t.world_size = 2;
    const auto rank0 = t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 100, "r0", 0});
    const auto rank1 = t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 100, "r1", 1});
    const auto add = [&](ActivityKind kind, profiler::LaneId lane, std::int64_t start) {
        Activity a;
        a.kind = kind;
        a.lane = lane;
        a.start_ns = start;
        a.end_ns = start + (kind == ActivityKind::Kernel ? 100 : 50);
        t.activities.push_back(a);
    };
    add(ActivityKind::Kernel, rank0, 0);
    add(ActivityKind::Kernel, rank1, 1000);
    add(ActivityKind::Memcpy, rank0, 1000);
    const auto metrics = compute_trace_metrics(t);
    EXPECT_DOUBLE_EQ(metric(metrics, "gpu_busy_pct"), 100.0);
    EXPECT_DOUBLE_EQ(metric(metrics, "gpu_idle_ms"), 0.0);
    EXPECT_DOUBLE_EQ(metric(metrics, "exposed_copy_ms"), 50e-6);
}

// A whole trace (trainscope run's, held in memory) sorts its work in memory whatever its
// size: with more kernels and copies than one of DeviceWorkSummary's runs and $TMPDIR a
// folder that does not exist, the metrics still come.
TEST(TraceMetrics, AWholeTraceNeedsNoTemporaryFile) {
    profiler::Trace t;
    const auto stream = t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 0, "s", 0});
    const std::int64_t n =
        static_cast<std::int64_t>(profiler::DeviceWorkSummary::kRunCapacity) + 1000;
    for (std::int64_t i = 0; i < n; ++i) {
        Activity a;
        a.kind = i % 4 == 0 ? ActivityKind::Memcpy : ActivityKind::Kernel;
        a.lane = stream;
        a.start_ns = 10 * (n - i);  // backwards: the sort has work to do
        a.end_ns = a.start_ns + 5;
        t.activities.push_back(a);
    }
    const char* old = std::getenv("TMPDIR");
    const std::string saved = old != nullptr ? old : "";
    setenv("TMPDIR", "/nonexistent/trainscope-no-tmp", 1);
    std::vector<Metric> metrics;
    EXPECT_NO_THROW(metrics = compute_trace_metrics(t));
    if (old != nullptr)
        setenv("TMPDIR", saved.c_str(), 1);
    else
        unsetenv("TMPDIR");
    ASSERT_FALSE(metrics.empty());
    EXPECT_EQ(metric(metrics, "kernel_count"), static_cast<double>(n - (n + 3) / 4));
    std::int64_t span = 0, busy = 0;
    for (const auto& d : profiler::analyze_gpu_busy(t)) {
        span += d.span_ns;
        busy += d.busy_ns;
    }
    EXPECT_EQ(metric(metrics, "gpu_busy_pct"), 100.0 * static_cast<double>(busy) / span);
}

}  // namespace
}  // namespace trainscope::reports
