// The typed configuration axes: every value formats to the spelling the database and CSV
// files have always stored, and parses back to itself.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "workloads/backend/BackendKind.hpp"
#include "workloads/backend/MemoryStrategy.hpp"
#include "workloads/numerics/Precision.hpp"
#include "workloads/optim/OptimizerKind.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {
namespace {

// The spellings, frozen: databases written by earlier versions hold exactly these.
template <class E, std::size_t N, class Parse>
void expect_round_trip(const std::array<E, N>& values, Parse parse,
                       const std::vector<std::string>& stored) {
    ASSERT_EQ(values.size(), stored.size());
    for (std::size_t i = 0; i < N; ++i) {
        EXPECT_EQ(to_string(values[i]), stored[i]);
        EXPECT_EQ(parse(to_string(values[i])), values[i]) << stored[i];
    }
}

TEST(WorkloadsConfigAxes, EveryValueRoundTripsThroughItsStoredSpelling) {
    expect_round_trip(kPrecisions, parse_precision, {"fp32", "tf32", "fp16", "bf16", "fp64"});
    expect_round_trip(kOptimizerKinds, parse_optimizer, {"adam", "sgd"});
    expect_round_trip(kBackendKinds, parse_backend_kind, {"cpu", "cuda"});
    expect_round_trip(kAllocators, parse_allocator, {"pool", "device", "async", "managed"});
    expect_round_trip(kHostMemories, parse_host_memory, {"pageable", "pinned"});
    expect_round_trip(kTransfers, parse_transfer, {"sync", "overlap"});
    expect_round_trip(kPlacements, parse_placement, {"stream", "resident"});
    expect_round_trip(kActivations, parse_activations, {"keep", "recompute"});
    expect_round_trip(kCudnnAlgos, parse_cudnn_algo, {"heuristic", "exhaustive"});
}

TEST(WorkloadsConfigAxes, ABadSpellingNamesTheAxisTheValueAndTheValidOnes) {
    try {
        parse_allocator("Pool");
        FAIL() << "accepted 'Pool'";
    } catch (const ConfigError& error) {
        EXPECT_STREQ(error.what(),
                     "allocator: unknown value 'Pool'; valid values are pool, device, async, "
                     "managed");
    }
    EXPECT_THROW(parse_host_memory(""), ConfigError);
    EXPECT_THROW(parse_transfer("n/a"), ConfigError);       // a recording, not a value
    EXPECT_THROW(parse_backend_kind("auto"), ConfigError);  // the harness resolves auto
}

TEST(WorkloadsConfigAxes, BuiltInBackendsAreKnownByTheirRegistryName) {
    EXPECT_TRUE(is_backend("cpu", BackendKind::cpu));
    EXPECT_FALSE(is_backend("cuda", BackendKind::cpu));
    EXPECT_FALSE(is_backend("slow-copy-cpu", BackendKind::cpu));
    EXPECT_TRUE(allocator_needs_cuda(Allocator::async));
    EXPECT_TRUE(allocator_needs_cuda(Allocator::managed));
    EXPECT_FALSE(allocator_needs_cuda(Allocator::pool));
    EXPECT_FALSE(allocator_needs_cuda(Allocator::device));
}

}  // namespace
}  // namespace trainscope::workloads
