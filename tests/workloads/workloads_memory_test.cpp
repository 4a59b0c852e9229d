// The caching pool, peak tensor memory, and recomputation (activations=recompute):
// bit-identical gradients with a lower peak.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <vector>

#include "workloads/backends/cpu/HostRawAllocator.hpp"
#include "workloads/memory/CachingPool.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/models/ResNet.hpp"
#include "workloads/training/TrainingSession.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

using testing::CpuHarness;
using testing::random_values;

// Counts what reaches the upstream allocator.
class CountingAllocator final : public RawAllocator {
  public:
    void* allocate(std::size_t bytes, TensorClass tensor_class) override {
        ++allocations;
        live_bytes += static_cast<std::int64_t>(bytes);
        return host.allocate(bytes, tensor_class);
    }
    void deallocate(void* data, std::size_t bytes, TensorClass tensor_class) noexcept override {
        ++deallocations;
        live_bytes -= static_cast<std::int64_t>(bytes);
        host.deallocate(data, bytes, tensor_class);
    }
    std::string name() const override { return "counting"; }

    HostRawAllocator host;
    int allocations = 0;
    int deallocations = 0;
    std::int64_t live_bytes = 0;
};

TEST(WorkloadsCachingPool, SizeClassesHaveAtMostAQuarterSlack) {
    EXPECT_EQ(CachingPool::size_class_bytes(1), 256u);
    EXPECT_EQ(CachingPool::size_class_bytes(256), 256u);
    EXPECT_EQ(CachingPool::size_class_bytes(257), 320u);
    EXPECT_EQ(CachingPool::size_class_bytes(1024), 1024u);
    EXPECT_EQ(CachingPool::size_class_bytes(1025), 1280u);
    for (std::size_t bytes = 300; bytes < (1u << 22); bytes = bytes * 3 / 2 + 7) {
        const std::size_t block = CachingPool::size_class_bytes(bytes);
        EXPECT_GE(block, bytes);
        EXPECT_LE(block, bytes + bytes / 4 + 1) << bytes;
    }
}

TEST(WorkloadsCachingPool, ReusesFreedBlocksOfTheSameClass) {
    CountingAllocator upstream;
    {
        CachingPool pool(upstream);
        void* a = pool.allocate(1000, TensorClass::other);
        pool.deallocate(a, 1000, TensorClass::other);
        void* b = pool.allocate(1010, TensorClass::other);  // same class as 1000
        EXPECT_EQ(a, b);
        EXPECT_EQ(pool.reused_blocks(), 1);
        EXPECT_EQ(upstream.allocations, 1);
        void* c = pool.allocate(5000, TensorClass::other);  // another class: a new block
        EXPECT_NE(c, b);
        EXPECT_EQ(upstream.allocations, 2);
        pool.deallocate(b, 1010, TensorClass::other);
        pool.deallocate(c, 5000, TensorClass::other);
        EXPECT_EQ(pool.in_use_bytes(), 0);
        EXPECT_EQ(upstream.deallocations, 0);  // cached, not returned
    }
    EXPECT_EQ(upstream.deallocations, 2);  // the pool returns everything when it goes
    EXPECT_EQ(upstream.live_bytes, 0);
}

TEST(WorkloadsCachingPool, ReportsItsHighWaterMark) {
    CountingAllocator upstream;
    CachingPool pool(upstream);
    const std::size_t mib = 1 << 20;
    void* a = pool.allocate(mib, TensorClass::other);
    void* b = pool.allocate(mib, TensorClass::other);
    EXPECT_EQ(pool.high_water_bytes(), static_cast<std::int64_t>(2 * mib));
    pool.deallocate(a, mib, TensorClass::other);
    pool.deallocate(b, mib, TensorClass::other);
    void* c = pool.allocate(mib, TensorClass::other);
    EXPECT_EQ(pool.high_water_bytes(), static_cast<std::int64_t>(2 * mib));
    EXPECT_EQ(pool.reserved_bytes(), static_cast<std::int64_t>(2 * mib));
    pool.deallocate(c, mib, TensorClass::other);
    pool.release_cached();
    EXPECT_EQ(pool.reserved_bytes(), 0);
    EXPECT_EQ(upstream.live_bytes, 0);
}

TEST(WorkloadsTensorAllocator, TracksLiveAndPeakBytes) {
    CountingAllocator upstream;
    TensorAllocator tensors(upstream);
    {
        Tensor a = tensors.allocate(Shape{100}, DType::f32);
        {
            Tensor b = tensors.allocate(Shape{50}, DType::f64);
            Tensor view = b.reshaped(Shape{5, 10});  // shares b's memory
            EXPECT_EQ(tensors.live_bytes(), 800);
        }
        EXPECT_EQ(tensors.live_bytes(), 400);
    }
    EXPECT_EQ(tensors.live_bytes(), 0);
    EXPECT_EQ(tensors.peak_bytes(), 800);
    EXPECT_EQ(upstream.live_bytes, 0);
}

struct StepOutcome {
    std::vector<std::vector<double>> gradients;
    std::vector<double> logits;
    std::int64_t peak_bytes = 0;
};

StepOutcome one_step(bool recompute) {
    CpuHarness h(Precision::fp32);
    auto model = make_resnet(Shape{3, 16, 16}, 5, 14, 8);
    model->set_recompute(recompute);
    model->materialize(h.context, 21);
    const std::int64_t batch = 8;
    Tensor x = h.upload(Shape{batch, 3, 16, 16}, random_values(batch * 3 * 256, 4, 0.0, 1.0));
    std::vector<std::int32_t> label_values{0, 1, 2, 3, 4, 0, 1, 2};
    Tensor labels = h.tensors.allocate(Shape{batch}, DType::i32);
    h.backend.copy_from_host(label_values.data(), labels);
    h.tensors.reset_peak();
    StepOutcome outcome;
    {
        Tensor logits = model->forward(h.context, x);
        outcome.logits = h.download(logits);
        Tensor dlogits = h.context.make(logits.shape());
        CrossEntropyTotals totals;
        h.backend.softmax_cross_entropy(logits, labels, 1.0, dlogits, totals);
        logits = Tensor();
        model->backward(h.context, dlogits);
    }
    outcome.peak_bytes = h.tensors.peak_bytes();
    for (Parameter* p : model->parameters()) {
        outcome.gradients.push_back(h.download(p->gradient));
    }
    for (StateBuffer* b : model->buffers()) {
        outcome.gradients.push_back(h.download(b->value));  // running stats updated once
    }
    return outcome;
}

TEST(WorkloadsRecompute, GradientsBitIdenticalWithALowerPeak) {
    const StepOutcome keep = one_step(false);
    const StepOutcome recompute = one_step(true);
    ASSERT_EQ(keep.gradients.size(), recompute.gradients.size());
    for (std::size_t i = 0; i < keep.gradients.size(); ++i) {
        ASSERT_EQ(keep.gradients[i].size(), recompute.gradients[i].size());
        EXPECT_EQ(std::memcmp(keep.gradients[i].data(), recompute.gradients[i].data(),
                              keep.gradients[i].size() * sizeof(double)),
                  0)
            << "tensor " << i;
    }
    EXPECT_EQ(keep.logits, recompute.logits);
    EXPECT_LT(recompute.peak_bytes, keep.peak_bytes);
    std::printf("resnet-14 w8 batch 8 peak tensor bytes: keep %lld, recompute %lld\n",
                static_cast<long long>(keep.peak_bytes),
                static_cast<long long>(recompute.peak_bytes));
}

TrainingConfig small_synthetic_run() {
    TrainingConfig config;
    config.model = "resnet";
    config.model_params = {{"depth", "8"}, {"width", "4"}};
    config.dataset = "synthetic";
    config.input_shape = "3x12x12";
    config.classes = 4;
    config.batch = 16;
    config.steps = 6;
    config.threads = 2;
    config.evaluate = false;
    return config;
}

TEST(WorkloadsRecompute, TrainingRunSameLossesLowerPeak) {
    TrainingConfig keep = small_synthetic_run();
    TrainingConfig recompute = keep;
    recompute.activations = Activations::recompute;
    const TrainingResult a = run_training(keep, nullptr);
    const TrainingResult b = run_training(recompute, nullptr);
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
        EXPECT_EQ(a.steps[i].loss, b.steps[i].loss) << i;
    }
    EXPECT_LT(b.peak_tensor_bytes, a.peak_tensor_bytes);
    EXPECT_EQ(b.environment.at("activations"), "recompute");
}

TEST(WorkloadsPool, SameLossesAsPlainAllocation) {
    TrainingConfig device = small_synthetic_run();
    device.allocator = Allocator::device;
    TrainingConfig pool = device;
    pool.allocator = Allocator::pool;
    const TrainingResult a = run_training(device, nullptr);
    const TrainingResult b = run_training(pool, nullptr);
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
        EXPECT_EQ(a.steps[i].loss, b.steps[i].loss) << i;
    }
    EXPECT_EQ(a.peak_tensor_bytes, b.peak_tensor_bytes);
    EXPECT_EQ(a.extra_metrics.count("pool_high_water_bytes"), 0u);
}

TEST(WorkloadsPool, NoUpstreamAllocationAfterTheFirstSteps) {
    TrainingConfig config = small_synthetic_run();
    config.allocator = Allocator::pool;
    config.steps = 3;
    const TrainingResult short_run = run_training(config, nullptr);
    config.steps = 12;
    const TrainingResult long_run = run_training(config, nullptr);
    EXPECT_GT(long_run.extra_metrics.at("pool_reused_blocks"),
              short_run.extra_metrics.at("pool_reused_blocks"));
    EXPECT_EQ(long_run.extra_metrics.at("pool_upstream_allocations"),
              short_run.extra_metrics.at("pool_upstream_allocations"));
    EXPECT_GE(long_run.extra_metrics.at("pool_high_water_bytes"),
              static_cast<double>(long_run.peak_tensor_bytes));
    EXPECT_EQ(long_run.environment.at("allocator"), "pool");
}

}  // namespace
}  // namespace trainscope::workloads
