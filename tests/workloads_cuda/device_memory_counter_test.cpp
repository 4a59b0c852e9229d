#include <gtest/gtest.h>

#include "workloads/backends/cuda/DeviceMemoryCounter.hpp"

namespace trainscope::workloads::cuda {
namespace {

TEST(DeviceMemoryCounter, PeakIsTheHighestLiveTotal) {
    DeviceMemoryCounter counter;
    counter.allocated(100);
    counter.allocated(50);
    counter.released(100);
    counter.allocated(80);  // live 130 < peak 150
    EXPECT_EQ(counter.live_bytes(), 130);
    EXPECT_EQ(counter.peak_bytes(), 150);
    EXPECT_EQ(counter.allocations(), 3);
    counter.allocated(40);  // live 170: a new peak
    EXPECT_EQ(counter.peak_bytes(), 170);
}

}  // namespace
}  // namespace trainscope::workloads::cuda
