#include <gtest/gtest.h>

#include "HandBuiltTrace.hpp"
#include "profiler/trace/TraceMerge.hpp"

namespace trainscope::profiler {
namespace {

TEST(TraceMerge, ShiftsTimesSharesLanesAndReinternsNames) {
    testing::HandBuiltTrace gpu;
    gpu.trace().base_ns = 1'000;
    gpu.trace().capture_end_ns = 500;
    gpu.kernel(0, 7, "kernel", 100, 200, 1);
    gpu.runtime_call(42, "cudaLaunchKernel", 50, 60, 1);
    gpu.trace().dropped_records = 2;
    testing::HandBuiltTrace host;
    host.trace().base_ns = 1'100;  // started 100 ns later on the same clock
    host.trace().capture_end_ns = 600;
    host.nvtx_range(42, "step", 0, 300);
    host.runtime_call(42, "cudaMemcpyAsync", 10, 20, 2);  // same thread as the GPU capture's call
    CounterSeries power{"power", "W", 0, {{5, 250.0}}};
    host.trace().counters.push_back(power);
    host.trace().metadata["source.format"] = "host-nvtx";
    gpu.trace().metadata["source.format"] = "cupti";

    Trace merged = gpu.trace();
    merge_trace_into(merged, host.trace());
    ASSERT_EQ(merged.activities.size(), 4u);
    EXPECT_EQ(merged.lanes.size(), 3u);  // GPU stream, host thread (shared), NVTX
    std::map<std::string, Activity> by_name;
    for (const Activity& a : merged.activities)
        by_name[merged.strings.at(a.name)] = a;
    EXPECT_EQ(by_name["step"].start_ns, 100);
    EXPECT_EQ(by_name["step"].end_ns, 400);
    EXPECT_EQ(by_name["cudaMemcpyAsync"].lane, by_name["cudaLaunchKernel"].lane);
    EXPECT_EQ(by_name["kernel"].start_ns, 100);
    ASSERT_EQ(merged.counters.size(), 1u);
    EXPECT_EQ(merged.counters[0].samples[0].t_ns, 105);
    EXPECT_EQ(merged.capture_begin_ns, 0);
    EXPECT_EQ(merged.capture_end_ns, 700);
    EXPECT_EQ(merged.dropped_records, 2);
    EXPECT_EQ(merged.metadata.at("source.format"), "cupti");
}

}  // namespace
}  // namespace trainscope::profiler
