// Batch norm's running statistics live in one flat buffer of non-trainable state
// (layers/FlatState.hpp): every StateBuffer is a view at a 256-byte aligned offset of one
// storage, set to its initial value, and making the state costs the same backend calls
// whatever the number of batch norms (one allocation, one copy).
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <set>
#include <vector>

#include "workloads/backend/CountingBackend.hpp"
#include "workloads/layers/FlatParameters.hpp"
#include "workloads/models/ModelCatalog.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

using testing::CpuHarness;

std::unique_ptr<Model> resnet(int depth) {
    return build_model("resnet", {{"depth", std::to_string(depth)}, {"width", "4"}},
                       Shape{1, 12, 12}, 5);
}

TEST(WorkloadsFlatState, RunningStatisticsAreAlignedViewsOfOneBufferAtTheirInitialValues) {
    CpuHarness h(Precision::fp32, 1);
    std::unique_ptr<Model> model = resnet(8);
    model->materialize(h.context, 1);
    const Tensor& state = model->flat_state().values();
    ASSERT_FALSE(state.empty());
    const std::vector<double> values = h.download(state);
    std::vector<bool> used(values.size(), false);
    std::set<const void*> bases;
    ASSERT_GT(model->buffers().size(), 2u);
    for (const StateBuffer* b : model->buffers()) {
        bases.insert(static_cast<const char*>(b->value.raw()) - b->value.offset_bytes());
        EXPECT_EQ(b->value.offset_bytes() % kParameterAlignmentBytes, 0u) << b->name;
        const auto first = static_cast<std::size_t>(b->value.offset_bytes() / sizeof(float));
        for (std::size_t e = first; e < first + static_cast<std::size_t>(b->shape.elements());
             ++e) {
            EXPECT_FALSE(used[e]) << b->name << " overlaps another buffer";
            used[e] = true;
            EXPECT_EQ(values[e], b->initial_value) << b->name;
        }
    }
    EXPECT_EQ(bases.size(), 1u) << "every running statistic is a view of one storage";
    EXPECT_EQ(bases.count(state.raw()), 1u);
    for (std::size_t e = 0; e < values.size(); ++e) {
        if (!used[e]) {
            EXPECT_EQ(values[e], 0.0) << "padding element " << e;
        }
    }
}

// Backend calls that materializing a ResNet makes, and its number of state buffers.
struct Materialized {
    std::array<std::int64_t, kBackendOpCount> calls{};
    std::size_t buffers = 0;
};

Materialized materialize(int depth) {
    CountingBackend backend(std::make_unique<CpuBackend>(1));
    TensorAllocator tensors(backend.raw_allocator());
    StepContext context{backend, tensors, policy_for(Precision::fp16), DType::f32, true, false};
    const std::unique_ptr<Model> model = resnet(depth);  // dies before its allocator
    model->materialize(context, 1);
    return {backend.calls(), model->buffers().size()};
}

TEST(WorkloadsFlatState, MakingTheStateCostsTheSameCallsWhateverTheBatchNormCount) {
    const Materialized small = materialize(8);
    const Materialized large = materialize(20);
    ASSERT_GT(large.buffers, small.buffers);
    for (std::size_t op = 0; op < kBackendOpCount; ++op) {
        EXPECT_EQ(small.calls[op], large.calls[op]) << kBackendOpNames[op];
    }
    // The masters and the state: one upload each.
    EXPECT_EQ(small.calls[static_cast<std::size_t>(BackendOp::copy_from_host)], 2);
}

}  // namespace
}  // namespace trainscope::workloads
