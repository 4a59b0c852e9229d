// The backend hooks the engine relies on beyond the operations: step timing,
// emulation flags, row gathering, and placement=resident batches equal to streamed ones.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "workloads/backend/ContractError.hpp"
#include "workloads/datasets/BatchLoader.hpp"
#include "workloads/datasets/SyntheticImageSource.hpp"
#include "workloads/training/ConfigError.hpp"
#include "workloads/training/TrainingSession.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

using testing::CpuHarness;

TEST(WorkloadsStepTimer, SteadyClockTimerMeasuresTheTimeSinceItStarted) {
    SteadyClockStepTimer timer;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const std::int64_t elapsed_ns = timer.stop_ns();
    EXPECT_GE(elapsed_ns, 5'000'000);
    EXPECT_LT(elapsed_ns, 5'000'000'000);
}

TEST(WorkloadsStepTimer, TrainingStepDurationsComeFromTheBackendsTimer) {
    TrainingConfig config;
    config.dataset = "synthetic";
    config.input_shape = "1x12x12";
    config.classes = 4;
    config.batch = 8;
    config.steps = 3;
    config.warmup_steps = 0;
    config.evaluate = false;
    const auto wall_start = std::chrono::steady_clock::now();
    const TrainingResult result = run_training(config, nullptr);
    const auto wall_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now() - wall_start)
                             .count();
    ASSERT_EQ(result.steps.size(), 3u);
    std::int64_t sum_ns = 0;
    for (const StepRecord& step : result.steps) {
        EXPECT_GT(step.duration_ns, 0);
        sum_ns += step.duration_ns;
    }
    EXPECT_EQ(result.train_time_ns, sum_ns);
    EXPECT_LE(sum_ns, wall_ns);  // steps are timed inside the run, set-up excluded
}

TEST(WorkloadsEmulation, CpuBackendEmulatesExactlyTheReducedPrecisions) {
    CpuBackend backend(1);
    EXPECT_FALSE(backend.emulates(Precision::fp32));
    EXPECT_FALSE(backend.emulates(Precision::fp64));
    EXPECT_TRUE(backend.emulates(Precision::tf32));
    EXPECT_TRUE(backend.emulates(Precision::fp16));
    EXPECT_TRUE(backend.emulates(Precision::bf16));
}

template <typename T>
std::vector<T> download_raw(CpuHarness& h, const Tensor& t) {
    std::vector<T> values(static_cast<std::size_t>(t.elements()));
    h.backend.copy_to_host(t, values.data());
    return values;
}

Tensor upload_indices(CpuHarness& h, const std::vector<std::int32_t>& rows) {
    Tensor indices = h.tensors.allocate(Shape{static_cast<std::int64_t>(rows.size())}, DType::i32);
    h.backend.copy_from_host(rows.data(), indices);
    return indices;
}

TEST(WorkloadsGatherRows, CopiesTheIndexedRowsInOrderWithRepeats) {
    CpuHarness h(Precision::fp64);
    const Tensor source =
        h.upload(Shape{4, 1, 1, 3}, {0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32});
    const Tensor indices = upload_indices(h, {3, 0, 3});
    Tensor destination = h.context.make(Shape{3, 1, 1, 3});
    h.backend.gather_rows(source, indices, destination);
    EXPECT_EQ(h.download(destination), (std::vector<double>{30, 31, 32, 0, 1, 2, 30, 31, 32}));
}

TEST(WorkloadsGatherRows, GathersI32Labels) {
    CpuHarness h(Precision::fp32);
    Tensor labels = h.tensors.allocate(Shape{3}, DType::i32);
    const std::vector<std::int32_t> values{7, 8, 9};
    h.backend.copy_from_host(values.data(), labels);
    const Tensor indices = upload_indices(h, {2, 1});
    Tensor destination = h.tensors.allocate(Shape{2}, DType::i32);
    h.backend.gather_rows(labels, indices, destination);
    EXPECT_EQ(download_raw<std::int32_t>(h, destination), (std::vector<std::int32_t>{9, 8}));
}

TEST(WorkloadsGatherRows, RefusesMismatchedTensorsAndBadIndices) {
    CpuHarness h(Precision::fp32);
    const Tensor source = h.context.make(Shape{4, 2});
    Tensor destination = h.context.make(Shape{2, 2});
    EXPECT_THROW(h.backend.gather_rows(source, upload_indices(h, {0, 4}), destination),
                 std::logic_error);
    EXPECT_THROW(h.backend.gather_rows(source, upload_indices(h, {0, -1}), destination),
                 std::logic_error);
    // Mismatched tensors break the Backend contract, which Backend checks for every
    // backend (ContractError naming the argument); a bad index is the backend's own check.
    EXPECT_THROW(h.backend.gather_rows(source, upload_indices(h, {0}), destination), ContractError);
    Tensor wider = h.context.make(Shape{2, 3});
    EXPECT_THROW(h.backend.gather_rows(source, upload_indices(h, {0, 1}), wider), ContractError);
    Tensor other_dtype = h.tensors.allocate(Shape{2, 2}, DType::f64);
    EXPECT_THROW(h.backend.gather_rows(source, upload_indices(h, {0, 1}), other_dtype),
                 ContractError);
}

void expect_same_bytes(CpuHarness& h, const Tensor& actual, const Tensor& expected,
                       const char* what, std::int64_t batch) {
    ASSERT_EQ(actual.shape(), expected.shape()) << what << " batch " << batch;
    ASSERT_EQ(actual.dtype(), expected.dtype()) << what << " batch " << batch;
    std::vector<unsigned char> a(actual.bytes());
    std::vector<unsigned char> e(expected.bytes());
    h.backend.copy_to_host(actual, a.data());
    h.backend.copy_to_host(expected, e.data());
    EXPECT_EQ(std::memcmp(a.data(), e.data(), a.size()), 0) << what << " batch " << batch;
}

// Every batch of two shuffled epochs and of an unshuffled pass with a partial last batch,
// bit for bit, in f32 and f64.
void expect_resident_equals_stream(Precision precision) {
    CpuHarness h(precision);
    const SyntheticImageSource source(Shape{1, 5, 5}, 3, 23, 11, 0);
    for (const bool shuffle : {true, false}) {
        BatchLoader streamed(source, 4, shuffle, 9, BatchPlacement::stream);
        BatchLoader resident(source, 4, shuffle, 9, BatchPlacement::resident);
        ASSERT_EQ(resident.batches_per_epoch(), streamed.batches_per_epoch());
        for (int epoch = 0; epoch < 2; ++epoch) {
            streamed.start_epoch();
            resident.start_epoch();
            for (std::int64_t b = 0; b < streamed.batches_per_epoch(); ++b) {
                const Batch expected = streamed.load(h.context, b);
                const Batch actual = resident.load(h.context, b);
                expect_same_bytes(h, actual.images, expected.images, "images", b);
                expect_same_bytes(h, actual.labels, expected.labels, "labels", b);
            }
        }
    }
}

TEST(WorkloadsResidentPlacement, BatchesEqualStreamedBatchesBitForBitF32) {
    expect_resident_equals_stream(Precision::fp32);
}

TEST(WorkloadsResidentPlacement, BatchesEqualStreamedBatchesBitForBitF64) {
    expect_resident_equals_stream(Precision::fp64);
}

TEST(WorkloadsResidentPlacement, KeepsTheWholeDatasetOnTheBackendOnce) {
    CpuHarness h(Precision::fp32);
    const SyntheticImageSource source(Shape{1, 5, 5}, 3, 23, 11, 0);
    BatchLoader resident(source, 4, true, 9, BatchPlacement::resident);
    resident.start_epoch();
    const std::int64_t before = h.tensors.live_bytes();
    resident.prepare(h.context);
    // 23 images of 25 f32 values plus 23 i32 labels, before any batch is loaded.
    EXPECT_EQ(h.tensors.live_bytes() - before, 23 * 25 * 4 + 23 * 4);
    { const Batch first = resident.load(h.context, 0); }
    const std::int64_t resident_bytes = h.tensors.live_bytes();
    { const Batch second = resident.load(h.context, 1); }
    EXPECT_EQ(h.tensors.live_bytes(), resident_bytes);  // uploaded once
}

}  // namespace
}  // namespace trainscope::workloads
