// The trace's run metrics (compute_trace_metrics, made by TraceMetricsAccumulator as the
// activities pass) against the analyses that define them, on traces whose activities
// come in no order: GPU busy over the union of each device's kernels, the copy time not
// hidden under kernels, the tensor-core share, and for a CPU run the ops' busy share.
#include <gtest/gtest.h>

#include <random>

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

}  // namespace
}  // namespace trainscope::reports
