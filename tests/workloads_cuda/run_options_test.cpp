#include <gtest/gtest.h>

#include "workloads/backends/cuda/CudaRunOptions.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads::cuda {
namespace {

// The caching pool by default, as PyTorch's caching allocator.
TEST(CudaRunOptions, DefaultsArePoolAllocationPageableSync) {
    const CudaRunOptions parsed = parse_cuda_run_options(BackendOptions{});
    EXPECT_EQ(parsed.allocation, DeviceAllocation::pool);
    EXPECT_EQ(parsed.host_memory, HostMemory::pageable);
    EXPECT_EQ(parsed.transfer, TransferMode::sync);
    EXPECT_FALSE(parsed.exhaustive_algorithms);
    EXPECT_EQ(parsed.workspace_limit_bytes, std::size_t{256} << 20);
}

TEST(CudaRunOptions, EveryAllocatorParses) {
    BackendOptions options;
    for (const auto& [text, expected] :
         {std::pair{"device", DeviceAllocation::device}, std::pair{"pool", DeviceAllocation::pool},
          std::pair{"async", DeviceAllocation::async},
          std::pair{"managed", DeviceAllocation::managed}}) {
        options.allocator = parse_allocator(text);
        EXPECT_EQ(parse_cuda_run_options(options).allocation, expected) << text;
        EXPECT_EQ(to_string(expected), text);
    }
}

TEST(CudaRunOptions, PinnedOverlapAndExhaustiveParse) {
    BackendOptions options;
    options.host_memory = HostMemory::pinned;
    options.transfer = Transfer::overlap;
    options.cudnn_algo = CudnnAlgo::exhaustive;
    options.cudnn_workspace_bytes = 1 << 20;
    options.device = 3;
    const CudaRunOptions parsed = parse_cuda_run_options(options);
    EXPECT_EQ(parsed.host_memory, HostMemory::pinned);
    EXPECT_EQ(parsed.transfer, TransferMode::overlap);
    EXPECT_TRUE(parsed.exhaustive_algorithms);
    EXPECT_EQ(parsed.workspace_limit_bytes, std::size_t{1} << 20);
    EXPECT_EQ(parsed.device, 3);
}

void expect_config_error_naming(const BackendOptions& options, const std::string& parameter) {
    try {
        parse_cuda_run_options(options);
        FAIL() << "accepted an invalid " << parameter;
    } catch (const ConfigError& error) {
        EXPECT_EQ(std::string(error.what()).rfind(parameter + ":", 0), 0u) << error.what();
    }
}

template <class Parse>
void expect_parse_error_naming(Parse parse, const char* text, const std::string& parameter) {
    try {
        parse(text);
        FAIL() << "accepted an invalid " << parameter << " '" << text << "'";
    } catch (const ConfigError& error) {
        EXPECT_EQ(std::string(error.what()).rfind(parameter + ":", 0), 0u) << error.what();
    }
}

// Unknown spellings can no longer reach the backend: the options are typed, and their
// text is refused where it is parsed, naming the parameter as before.
TEST(CudaRunOptions, InvalidValuesNameTheirParameter) {
    expect_parse_error_naming(parse_allocator, "slab", "allocator");
    expect_parse_error_naming(parse_host_memory, "locked", "host_memory");
    expect_parse_error_naming(parse_transfer, "async", "transfer");
    expect_parse_error_naming(parse_cudnn_algo, "fastest", "cudnn_algo");
    BackendOptions options;
    options.cudnn_workspace_bytes = -1;
    expect_config_error_naming(options, "cudnn_workspace_bytes");
    options = {};
    options.device = -1;
    expect_config_error_naming(options, "device");
}

TEST(CudaRunOptions, OverlapNeedsPinnedMemory) {
    BackendOptions options;
    options.transfer = Transfer::overlap;
    expect_config_error_naming(options, "transfer");
}

TEST(CudaRunOptions, PlacementResidentIsAcceptedAndUnknownPlacementsAreNot) {
    BackendOptions options;
    EXPECT_EQ(parse_cuda_run_options(options).placement, DataPlacement::stream);
    options.placement = Placement::resident;
    EXPECT_EQ(parse_cuda_run_options(options).placement, DataPlacement::resident);
    EXPECT_EQ(to_string(DataPlacement::resident), "resident");
    expect_parse_error_naming(parse_placement, "host", "placement");
}

TEST(CudaRunOptions, CudaGraphRunsWithEveryAllocatorButManaged) {
    BackendOptions options;
    EXPECT_FALSE(parse_cuda_run_options(options).cuda_graph);
    options.cuda_graph = true;
    for (const char* allocator : {"device", "pool", "async"}) {
        options.allocator = parse_allocator(allocator);
        EXPECT_TRUE(parse_cuda_run_options(options).cuda_graph) << allocator;
    }
    options.host_memory = HostMemory::pinned;
    options.transfer = Transfer::overlap;
    options.placement = Placement::resident;
    EXPECT_TRUE(parse_cuda_run_options(options).cuda_graph);
}

TEST(CudaRunOptions, CudaGraphWithManagedMemoryIsRefusedWithTheReason) {
    BackendOptions options;
    options.cuda_graph = true;
    options.allocator = Allocator::managed;
    expect_config_error_naming(options, "cuda_graph");
    try {
        parse_cuda_run_options(options);
    } catch (const ConfigError& error) {
        const std::string message = error.what();
        for (const char* word : {"managed", "prefetch", "allocator=pool"}) {
            EXPECT_NE(message.find(word), std::string::npos) << word << " not in: " << message;
        }
    }
}

}  // namespace
}  // namespace trainscope::workloads::cuda
