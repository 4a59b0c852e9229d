// Memory by tensor class: every tensor of a training run is counted under its class, the
// breakdown at the peak sums to the allocator's high-water mark, memory returns to the
// resident classes between steps, and recomputation lowers the activation peak.
#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <vector>

#include "workloads/backends/cpu/HostRawAllocator.hpp"
#include "workloads/memory/CachingPool.hpp"
#include "workloads/memory/MemoryLedger.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::workloads {
namespace {

std::int64_t sum(const ClassBytes& bytes) {
    return std::accumulate(bytes.begin(), bytes.end(), std::int64_t{0});
}

std::int64_t of(const ClassBytes& bytes, TensorClass tensor_class) {
    return bytes[tensor_class_index(tensor_class)];
}

TrainingConfig small_resnet(Allocator allocator) {
    TrainingConfig config;
    config.model = "resnet";
    config.model_params = {{"depth", "8"}, {"width", "4"}};
    config.dataset = "synthetic";
    config.input_shape = "3x12x12";
    config.classes = 4;
    config.batch = 16;
    config.steps = 5;
    config.threads = 2;
    config.evaluate = false;
    config.allocator = allocator;
    return config;
}

TEST(WorkloadsMemoryLedger, KeepsTheBreakdownOfTheMomentOfThePeak) {
    MemoryLedger ledger;
    ledger.allocated(TensorClass::weights, 100);
    ledger.allocated(TensorClass::activations, 50);
    ledger.released(TensorClass::activations, 50);
    ledger.allocated(TensorClass::gradients, 30);  // 130 < 150: not a new peak
    EXPECT_EQ(ledger.peak_bytes(), 150);
    EXPECT_EQ(of(ledger.peak(), TensorClass::weights), 100);
    EXPECT_EQ(of(ledger.peak(), TensorClass::activations), 50);
    EXPECT_EQ(of(ledger.peak(), TensorClass::gradients), 0);
    EXPECT_EQ(of(ledger.class_max(), TensorClass::gradients), 30);
    EXPECT_EQ(ledger.live_bytes(), 130);
    EXPECT_EQ(ledger.live_bytes(TensorClass::activations), 0);
}

TEST(WorkloadsMemoryLedger, TensorsCarryTheirClassToTheLedgerAndThePool) {
    HostRawAllocator host;
    CachingPool pool(host);
    TensorAllocator tensors(pool);
    {
        Tensor w = tensors.allocate(Shape{1000}, DType::f32, TensorClass::weights);
        Tensor a = tensors.allocate(Shape{64, 10}, DType::f32, TensorClass::activations);
        const Tensor view = w.view(10, Shape{5});
        EXPECT_EQ(view.tensor_class(), TensorClass::weights);
        EXPECT_EQ(tensors.ledger().live_bytes(TensorClass::weights), 4000);
        EXPECT_EQ(tensors.ledger().live_bytes(TensorClass::activations), 2560);
        EXPECT_EQ(pool.in_use_bytes(TensorClass::weights),
                  static_cast<std::int64_t>(CachingPool::size_class_bytes(4000)));
        EXPECT_EQ(
            pool.in_use_bytes(TensorClass::weights) + pool.in_use_bytes(TensorClass::activations),
            pool.in_use_bytes());
    }
    EXPECT_EQ(tensors.ledger().live_bytes(), 0);
    EXPECT_EQ(pool.in_use_bytes(TensorClass::weights), 0);
    EXPECT_EQ(pool.in_use_bytes(TensorClass::activations), 0);
    EXPECT_EQ(tensors.ledger().peak_bytes(), tensors.peak_bytes());
}

TEST(WorkloadsMemoryClass, PeakBreakdownSumsToTheAllocatorHighWaterMark) {
    for (const Allocator allocator : {Allocator::device, Allocator::pool}) {
        const TrainingResult result = run_training(small_resnet(allocator), nullptr);
        const ClassBytes& peak = result.peak_bytes_by_class;
        EXPECT_EQ(sum(peak), result.peak_tensor_bytes) << to_string(allocator);
        // Every class the engine makes is at the peak; nothing of a training run is
        // "other".
        EXPECT_GT(of(peak, TensorClass::weights), 0);
        EXPECT_GT(of(peak, TensorClass::gradients), 0);
        EXPECT_GT(of(peak, TensorClass::optimizer_state), 0);
        EXPECT_GT(of(peak, TensorClass::activations), 0);
        EXPECT_GT(of(peak, TensorClass::input_batch), 0);
        EXPECT_EQ(of(result.max_bytes_by_class, TensorClass::other), 0);
        for (const TensorClass c : kTensorClasses)
            EXPECT_LE(of(peak, c), of(result.max_bytes_by_class, c)) << tensor_class_name(c);
    }
}

// The memory convolutions use outside the tensors (im2col columns on the few-channel
// path, oneDNN's blocked copies and its scratchpad, which it asks of us in user mode) is
// the workspace class: counted while its op runs, in the peak breakdown that still sums to
// the high-water mark. Width 8 sends every pass through oneDNN, width 4 the forward and
// backward-data passes through im2col.
TEST(WorkloadsMemoryClass, ConvolutionWorkspaceIsCounted) {
    for (const char* width : {"4", "8"}) {
        TrainingConfig config = small_resnet(Allocator::pool);
        config.model_params["width"] = width;
        config.steps = 2;
        const TrainingResult result = run_training(config, nullptr);
        EXPECT_GT(of(result.max_bytes_by_class, TensorClass::workspace), 0) << "width " << width;
        EXPECT_EQ(sum(result.peak_bytes_by_class), result.peak_tensor_bytes) << "width " << width;
    }
}

// Follows the bytes per class as the engine reports them and looks at them when each
// step has ended.
class ResidentCheck final : public TrainingObserver, public MemoryListener {
  public:
    void on_memory_change(TensorClass tensor_class, std::int64_t class_bytes,
                          std::int64_t total_bytes) noexcept override {
        live[tensor_class_index(tensor_class)] = class_bytes;
        total = total_bytes;
    }
    MemoryListener* memory_listener() override { return this; }
    bool on_step(const StepRecord&) override {
        at_step_end.push_back(live);
        totals.push_back(total);
        return true;
    }

    ClassBytes live{};
    std::int64_t total = 0;
    std::vector<ClassBytes> at_step_end;
    std::vector<std::int64_t> totals;
};

TEST(WorkloadsMemoryClass, MemoryReturnsToTheResidentClassesAfterEveryStep) {
    TrainingConfig config = small_resnet(Allocator::pool);
    config.steps = 6;
    ResidentCheck check;
    const TrainingResult result = run_training(config, &check);
    ASSERT_EQ(check.at_step_end.size(), 6u);
    const ClassBytes& first = check.at_step_end.front();
    for (std::size_t s = 0; s < check.at_step_end.size(); ++s) {
        const ClassBytes& end = check.at_step_end[s];
        EXPECT_EQ(sum(end), check.totals[s]) << "step " << s;
        EXPECT_EQ(of(end, TensorClass::activations), 0) << "step " << s;
        EXPECT_EQ(of(end, TensorClass::workspace), 0) << "step " << s;
        EXPECT_EQ(of(end, TensorClass::other), 0) << "step " << s;
        for (const TensorClass c :
             {TensorClass::weights, TensorClass::gradients, TensorClass::optimizer_state}) {
            EXPECT_GT(of(end, c), 0) << tensor_class_name(c);
            EXPECT_EQ(of(end, c), of(first, c)) << tensor_class_name(c) << " step " << s;
        }
        // At most the next step's batch is staged when a step ends.
        EXPECT_LE(of(end, TensorClass::input_batch),
                  of(result.max_bytes_by_class, TensorClass::input_batch));
    }
    // After the run every tensor is gone.
    EXPECT_EQ(check.total, 0);
}

TEST(WorkloadsMemoryClass, RecomputeLowersTheActivationPeakOfResnet) {
    TrainingConfig keep = small_resnet(Allocator::pool);
    keep.model_params = {{"depth", "14"}, {"width", "4"}};
    keep.steps = 2;
    TrainingConfig recompute = keep;
    recompute.activations = Activations::recompute;
    const TrainingResult a = run_training(keep, nullptr);
    const TrainingResult b = run_training(recompute, nullptr);
    const auto activations = [](const TrainingResult& r) {
        return of(r.max_bytes_by_class, TensorClass::activations);
    };
    EXPECT_LT(activations(b), activations(a));
    EXPECT_LT(of(b.peak_bytes_by_class, TensorClass::activations),
              of(a.peak_bytes_by_class, TensorClass::activations));
    // The resident classes do not change with the strategy.
    for (const TensorClass c :
         {TensorClass::weights, TensorClass::gradients, TensorClass::optimizer_state})
        EXPECT_EQ(of(b.max_bytes_by_class, c), of(a.max_bytes_by_class, c));
    std::printf("resnet-14 w4 batch 16 activation peak: keep %lld, recompute %lld bytes\n",
                static_cast<long long>(activations(a)), static_cast<long long>(activations(b)));
}

}  // namespace
}  // namespace trainscope::workloads
