// The CUDA side of the flat parameter buffers (layers/FlatParameters.hpp): one update over a
// flat buffer equals one update per parameter view bit for bit, for all three gradient
// types, and leaves the zero padding zero; the finite check over a flat buffer finds one bad
// element in any view; the views are 256-byte aligned device addresses; and the parameter
// work of a step is a fixed number of launches, counted through CUPTI's runtime-API
// callbacks. Label gpu: skips without a device.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "GpuTestSupport.hpp"
#include "LaunchCounter.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/layers/FlatParameters.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/models/ModelCatalog.hpp"
#include "workloads/optim/Adam.hpp"

namespace trainscope::workloads {
namespace {

// Parameter sizes of 1 element up to several thousand, laid out at 128-element offsets
// (256 bytes of f16, 512 of f32) as FlatParameters does for fp16.
std::vector<std::int64_t> sizes() {
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < 40; ++i) {
        out.push_back(1 + (i * 977) % 7000);
    }
    return out;
}

std::vector<std::int64_t> offsets(const std::vector<std::int64_t>& sizes, std::int64_t& total) {
    std::vector<std::int64_t> out;
    total = 0;
    for (const std::int64_t n : sizes) {
        out.push_back(total);
        total = (total + n + 127) / 128 * 128;
    }
    return out;
}

class CudaFlatParameters : public testing::TestWithParam<DType> {
  protected:
    void SetUp() override {
        TS_SKIP_WITHOUT_CUDA_DEVICE();
        gpu_ = create_backend("cuda", BackendOptions{});
        tensors_ = std::make_unique<TensorAllocator>(gpu_->raw_allocator());
    }

    // A flat buffer of `dtype` whose views hold values from `seed` and whose padding is 0.
    Tensor flat(DType dtype, std::uint32_t seed, bool non_negative) {
        std::mt19937 engine(seed);
        std::uniform_real_distribution<float> uniform(non_negative ? 0.0f : -1.0f, 1.0f);
        std::vector<float> values(static_cast<std::size_t>(total_), 0.0f);
        for (std::size_t i = 0; i < sizes_.size(); ++i) {
            for (std::int64_t e = 0; e < sizes_[i]; ++e) {
                values[static_cast<std::size_t>(offsets_[i] + e)] = uniform(engine);
            }
        }
        Tensor staging = tensors_->allocate(Shape{total_}, DType::f32);
        gpu_->copy_from_host(values.data(), staging);
        Tensor tensor = tensors_->allocate(Shape{total_}, dtype);
        gpu_->convert(staging, tensor);
        return tensor;
    }

    Tensor duplicate(const Tensor& t) {
        Tensor copy = tensors_->allocate(t.shape(), t.dtype());
        gpu_->copy(t, copy);
        return copy;
    }

    std::vector<std::uint8_t> bytes(const Tensor& t) {
        std::vector<std::uint8_t> out(t.bytes());
        gpu_->copy_to_host(t, out.data());
        return out;
    }

    Tensor view(const Tensor& flat, std::size_t i) const {
        return flat.view(offsets_[i], Shape{sizes_[i]});
    }

    std::vector<std::int64_t> sizes_ = sizes();
    std::int64_t total_ = 0;
    std::vector<std::int64_t> offsets_ = offsets(sizes_, total_);
    std::unique_ptr<Backend> gpu_;
    std::unique_ptr<TensorAllocator> tensors_;
};

TEST_P(CudaFlatParameters, AdamOverTheFlatBufferMatchesOneUpdatePerViewBitForBit) {
    Tensor p1 = flat(DType::f32, 1, false);
    Tensor g = flat(GetParam(), 2, false);
    Tensor m1 = flat(DType::f32, 3, false);
    Tensor v1 = flat(DType::f32, 4, true);
    Tensor p2 = duplicate(p1);
    Tensor m2 = duplicate(m1);
    Tensor v2 = duplicate(v1);
    AdamSettings settings;
    settings.learning_rate = 1e-3;
    settings.step = 3;
    gpu_->adam_update(p1, g, m1, v1, settings, 0.5, Tensor());
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
        Tensor pv = view(p2, i);
        Tensor mv = view(m2, i);
        Tensor vv = view(v2, i);
        gpu_->adam_update(pv, view(g, i), mv, vv, settings, 0.5, Tensor());
    }
    EXPECT_EQ(bytes(p1), bytes(p2));
    EXPECT_EQ(bytes(m1), bytes(m2));
    EXPECT_EQ(bytes(v1), bytes(v2));
}

TEST_P(CudaFlatParameters, FiniteCheckOverTheFlatBufferFindsOneBadElementInAnyView) {
    for (const std::size_t bad : {std::size_t{0}, sizes_.size() - 1}) {
        Tensor g = flat(GetParam(), 5, false);
        Tensor overflow = tensors_->allocate(Shape{1}, DType::f32);
        gpu_->fill(overflow, 0.0);
        gpu_->flag_non_finite(g, overflow);
        float flag = -1.0f;
        gpu_->copy_to_host(overflow, &flag);
        EXPECT_EQ(flag, 0.0f) << "finite values and zero padding";
        Tensor last = view(g, bad).view(sizes_[bad] - 1, Shape{1});
        gpu_->fill(last, std::numeric_limits<double>::infinity());
        gpu_->flag_non_finite(g, overflow);
        gpu_->copy_to_host(overflow, &flag);
        EXPECT_EQ(flag, 1.0f) << "inf at the end of view " << bad;
    }
}

INSTANTIATE_TEST_SUITE_P(GradientTypes, CudaFlatParameters,
                         testing::Values(DType::f32, DType::f16, DType::bf16));

// The parameter work of one fp16 step (Adam, the finite check, the 16-bit copies) in
// launches: one per flat buffer, the same for resnet-8 (29 parameter tensors) and
// resnet-20 (65). Before the multi-tensor calls it was one per parameter and operation.
TEST(CudaFlatParameterLaunches, ParameterWorkPerStepIsOneLaunchPerFlatBuffer) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    for (const char* depth : {"8", "20"}) {
        std::unique_ptr<Backend> gpu = create_backend("cuda", BackendOptions{});
        TensorAllocator tensors(gpu->raw_allocator());
        std::unique_ptr<Model> model =
            build_model("resnet", {{"depth", depth}}, Shape{3, 32, 32}, 10);
        StepContext context{*gpu, tensors, policy_for(Precision::fp16),
                            gpu->storage_dtype(Precision::fp16)};
        model->materialize(context, 1);
        for (const Parameter* p : model->parameters()) {
            for (const Tensor* t : {&p->value, &p->gradient, &p->compute_copy}) {
                EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t->raw()) % kParameterAlignmentBytes, 0u)
                    << p->name;
            }
        }
        AdamSettings settings;
        settings.learning_rate = 1e-3;
        Adam adam(model->flat_parameters(), context, settings);
        Tensor overflow = tensors.allocate(Shape{1}, DType::f32);
        gpu->fill(overflow, 0.0);
        gpu->synchronize();

        LaunchCounter counter;
        if (!counter.error().empty()) {
            GTEST_SKIP() << counter.error();
        }
        model->flag_non_finite_gradients(context, overflow);
        adam.step(context, 1.0 / 65536.0, overflow);
        model->refresh_compute_copies(context);
        gpu->synchronize();
        // 2 finite checks (f16 and f32 gradients), 2 Adam updates, 1 conversion.
        EXPECT_EQ(counter.launches(), 5)
            << "resnet-" << depth << " with " << model->parameters().size() << " parameters";
    }
}

}  // namespace
}  // namespace trainscope::workloads
