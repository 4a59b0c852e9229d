// Live CUPTI capture: needs a GPU (CTest label "gpu"); skips with a message otherwise.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <vector>

#include "profiler/analysis/LaunchIndex.hpp"
#include "profiler/capture/HostClock.hpp"
#include "profiler/cupti/CuptiTracer.hpp"

namespace trainscope::profiler {
namespace {

bool gpu_available() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

TEST(CuptiTracerGpu, RecordsCopiesMemsetsAndTheirLaunchesOnTheHostClock) {
    if (!gpu_available())
        GTEST_SKIP() << "no CUDA device found by cudaGetDeviceCount: live CUPTI capture not tested";
    constexpr std::size_t kBytes = 1 << 20;
    const std::int64_t before_ns = host_clock_now_ns();
    CuptiTracer tracer;
    void* device = nullptr;
    ASSERT_EQ(cudaMalloc(&device, kBytes), cudaSuccess);
    std::vector<char> host(kBytes, 1);
    ASSERT_EQ(cudaMemcpy(device, host.data(), kBytes, cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemset(device, 0, kBytes), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(host.data(), device, kBytes, cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ASSERT_EQ(cudaFree(device), cudaSuccess);
    const Trace trace = tracer.stop();
    const std::int64_t after_ns = host_clock_now_ns();

    int copies = 0;
    int memsets = 0;
    const LaunchIndex launches(trace);
    for (const Activity& a : trace.activities) {
        if (a.kind == ActivityKind::Memcpy) {
            ++copies;
            EXPECT_EQ(a.bytes, static_cast<std::int64_t>(kBytes));
            EXPECT_TRUE(launches.launch_of(a).has_value());
        }
        if (a.kind == ActivityKind::Memset)
            ++memsets;
        // One clock: every record lies inside the host-clock window of the capture.
        EXPECT_GE(trace.base_ns + a.start_ns, before_ns);
        EXPECT_LE(trace.base_ns + a.end_ns, after_ns);
    }
    EXPECT_EQ(copies, 2);
    EXPECT_EQ(memsets, 1);
    EXPECT_EQ(trace.dropped_records, 0);
    EXPECT_FALSE(trace.metadata.at("device.0.name").empty());
}

}  // namespace
}  // namespace trainscope::profiler
