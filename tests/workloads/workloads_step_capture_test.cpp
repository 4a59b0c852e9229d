// The backend-independent parts of cuda_graph=true: the deferred loss totals (on the CPU
// backend, where they are filled at once) and which configs refuse graphs before any
// backend is made.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/training/ConfigError.hpp"
#include "workloads/training/ConfigValidation.hpp"
#include "workloads/training/CudaGraphSupport.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

using testing::CpuHarness;

TEST(WorkloadsDeferredLoss, CpuTotalsEqualTheImmediateLossBitForBit) {
    for (const Precision precision : {Precision::fp32, Precision::fp64}) {
        CpuHarness h(precision);
        const Tensor logits = h.upload(Shape{6, 4}, testing::random_values(24, 3, -3.0, 3.0));
        Tensor labels = h.tensors.allocate(Shape{6}, DType::i32);
        const std::vector<std::int32_t> label_values{0, 3, 1, 1, 2, 0};
        h.backend.copy_from_host(label_values.data(), labels);
        Tensor immediate_gradient = h.context.make(Shape{6, 4});
        Tensor deferred_gradient = h.context.make(Shape{6, 4});

        CrossEntropyTotals immediate;
        h.backend.softmax_cross_entropy(logits, labels, 8.0, immediate_gradient, immediate);
        h.backend.softmax_cross_entropy_deferred(logits, labels, 8.0, deferred_gradient);
        const CrossEntropyTotals deferred = h.backend.take_loss_totals();

        EXPECT_EQ(std::memcmp(&deferred.loss_sum, &immediate.loss_sum, sizeof(double)), 0);
        EXPECT_EQ(deferred.correct, immediate.correct);
        EXPECT_EQ(deferred.count, 6);
        EXPECT_EQ(h.download(deferred_gradient), h.download(immediate_gradient));
    }
}

TEST(WorkloadsDeferredLoss, TotalsAddUpInCallOrderAndTakingResetsThem) {
    CpuHarness h(Precision::fp64);
    const Tensor logits = h.upload(Shape{3, 2}, {1, 2, 3, 1, 0, 0});
    Tensor labels = h.tensors.allocate(Shape{3}, DType::i32);
    const std::vector<std::int32_t> label_values{1, 0, 1};
    h.backend.copy_from_host(label_values.data(), labels);
    Tensor none;

    CrossEntropyTotals twice;
    h.backend.softmax_cross_entropy(logits, labels, 1.0, none, twice);
    h.backend.softmax_cross_entropy(logits, labels, 1.0, none, twice);
    h.backend.softmax_cross_entropy_deferred(logits, labels, 1.0, none);
    h.backend.softmax_cross_entropy_deferred(logits, labels, 1.0, none);
    const CrossEntropyTotals taken = h.backend.take_loss_totals();
    EXPECT_EQ(taken.loss_sum, twice.loss_sum);
    EXPECT_EQ(taken.correct, twice.correct);
    EXPECT_EQ(taken.count, 6);

    const CrossEntropyTotals empty = h.backend.take_loss_totals();
    EXPECT_EQ(empty.loss_sum, 0.0);
    EXPECT_EQ(empty.count, 0);
}

std::string validation_error(const TrainingConfig& config) {
    try {
        validate_run_parameters(config);
    } catch (const ConfigError& error) {
        return error.what();
    }
    return "";
}

TEST(WorkloadsCudaGraphOption, TheCpuBackendRefusesItAsACudaOption) {
    TrainingConfig config;
    config.backend = "cpu";
    config.cuda_graph = true;
    const std::string message = validation_error(config);
    EXPECT_EQ(message.rfind("cuda_graph:", 0), 0u) << message;
    EXPECT_NE(message.find("CUDA backend"), std::string::npos) << message;
    EXPECT_NE(message.find("cuda_graph=false"), std::string::npos) << message;
}

TEST(WorkloadsCudaGraphOption, ManagedMemoryIsRefusedSayingWhyAndWhatToUse) {
    TrainingConfig config;
    config.backend = "cuda";
    config.cuda_graph = true;
    config.allocator = Allocator::managed;
    const std::string message = validation_error(config);
    EXPECT_EQ(message.rfind("cuda_graph:", 0), 0u) << message;
    for (const char* word : {"managed", "prefetch", "allocator=pool"}) {
        EXPECT_NE(message.find(word), std::string::npos) << word << " not in: " << message;
    }
    EXPECT_EQ(message, cuda_graph_refusal(Allocator::managed));
    EXPECT_EQ(cuda_graph_refusal(Allocator::async), "");
}

TEST(WorkloadsCudaGraphOption, EveryPrecisionPassesTheEnginesChecks) {
    TrainingConfig config;
    config.backend = "cuda";
    config.cuda_graph = true;
    for (const char* precision : {"fp32", "tf32", "fp16", "bf16", "fp64"}) {
        config.precision = parse_precision(precision);
        EXPECT_EQ(validation_error(config), "") << precision;
    }
}

}  // namespace
}  // namespace trainscope::workloads
