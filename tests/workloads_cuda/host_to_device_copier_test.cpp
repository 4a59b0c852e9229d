// Each host_memory/transfer path delivers the bytes and counts them (label gpu).
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "GpuTestSupport.hpp"
#include "workloads/backends/cuda/HostToDeviceCopier.hpp"

namespace trainscope::workloads::cuda {
namespace {

struct CopyPath {
    HostMemory host_memory;
    TransferMode transfer;
};

void PrintTo(const CopyPath& path, std::ostream* out) {
    *out << to_string(path.host_memory) << "/" << to_string(path.transfer);
}

class HostToDeviceCopierTest : public testing::TestWithParam<CopyPath> {};

TEST_P(HostToDeviceCopierTest, DeliversEveryBatchIntactWhileTheHostReusesItsBuffer) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const CopyPath path = GetParam();
    CudaStream stream = make_stream();
    HostToDeviceCopier copier(path.host_memory, path.transfer, stream.get());
    constexpr std::size_t kCount = 1 << 16;
    constexpr int kBatches = 5;
    std::vector<DeviceMemory> destinations;
    std::vector<int> host(kCount);
    for (int batch = 0; batch < kBatches; ++batch) {
        // The same host buffer is overwritten for every batch, as the data loader does.
        std::iota(host.begin(), host.end(), batch * 1000);
        destinations.push_back(make_device_memory(kCount * sizeof(int)));
        copier.copy(host.data(), destinations.back().get(), kCount * sizeof(int));
    }
    TS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    copier.collect();
    EXPECT_EQ(copier.bytes(), static_cast<std::int64_t>(kBatches * kCount * sizeof(int)));
    EXPECT_GT(copier.time_ms(), 0.0);
    for (int batch = 0; batch < kBatches; ++batch) {
        std::vector<int> back(kCount);
        TS_CUDA_CHECK(cudaMemcpy(back.data(), destinations[static_cast<std::size_t>(batch)].get(),
                                 kCount * sizeof(int), cudaMemcpyDeviceToHost));
        EXPECT_EQ(back.front(), batch * 1000) << "batch " << batch;
        EXPECT_EQ(back.back(), batch * 1000 + static_cast<int>(kCount) - 1) << "batch " << batch;
    }
}

INSTANTIATE_TEST_SUITE_P(Paths, HostToDeviceCopierTest,
                         testing::Values(CopyPath{HostMemory::pageable, TransferMode::sync},
                                         CopyPath{HostMemory::pinned, TransferMode::sync},
                                         CopyPath{HostMemory::pinned, TransferMode::overlap}));

}  // namespace
}  // namespace trainscope::workloads::cuda
