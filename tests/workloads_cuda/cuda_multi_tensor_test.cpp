// The CUDA backend's multi-tensor calls (one launch per list, kernels/MultiTensorKernels)
// against its own single-tensor calls, bit for bit: the same per-element math on the same
// inputs. Lists longer than one launch's capacity, tensors of one element and of several
// chunks, all three gradient types; the overflow skip; and the launches per step's
// parameter work counted through CUPTI's runtime-API callbacks. Label gpu: skips without
// a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "GpuTestSupport.hpp"
#include "LaunchCounter.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/models/ModelCatalog.hpp"
#include "workloads/optim/Adam.hpp"
#include "workloads/optim/Sgd.hpp"

namespace trainscope::workloads {
namespace {

class CudaMultiTensor : public testing::TestWithParam<DType> {
  protected:
    void SetUp() override {
        TS_SKIP_WITHOUT_CUDA_DEVICE();
        gpu_ = create_backend("cuda", BackendOptions{});
        tensors_ = std::make_unique<TensorAllocator>(gpu_->raw_allocator());
    }

    // `count` tensors of varied sizes (1 element up to several 2048-element chunks),
    // dtype `dtype`, filled from `seed` (f32 values converted on the device).
    std::vector<Tensor> make_list(std::size_t count, DType dtype, std::uint32_t seed, float scale,
                                  bool non_negative = false) {
        std::mt19937 engine(seed);
        std::uniform_real_distribution<float> uniform(non_negative ? 0.0f : -scale, scale);
        std::vector<Tensor> list;
        for (std::size_t i = 0; i < count; ++i) {
            const std::int64_t elements = 1 + static_cast<std::int64_t>((i * 977) % 7000);
            std::vector<float> values(static_cast<std::size_t>(elements));
            for (float& v : values) {
                v = uniform(engine);
            }
            Tensor staging = tensors_->allocate(Shape{elements}, DType::f32);
            gpu_->copy_from_host(values.data(), staging);
            Tensor tensor = tensors_->allocate(Shape{elements}, dtype);
            gpu_->convert(staging, tensor);
            list.push_back(tensor);
        }
        return list;
    }

    std::vector<Tensor> copies(const std::vector<Tensor>& list) {
        std::vector<Tensor> out;
        for (const Tensor& t : list) {
            Tensor copy = tensors_->allocate(t.shape(), t.dtype());
            gpu_->copy(t, copy);
            out.push_back(copy);
        }
        return out;
    }

    std::vector<std::uint8_t> bytes(const std::vector<Tensor>& list) {
        std::vector<std::uint8_t> all;
        for (const Tensor& t : list) {
            std::vector<std::uint8_t> one(t.bytes());
            gpu_->copy_to_host(t, one.data());
            all.insert(all.end(), one.begin(), one.end());
        }
        return all;
    }

    std::unique_ptr<Backend> gpu_;
    std::unique_ptr<TensorAllocator> tensors_;
};

template <typename T>
std::vector<T*> pointers(std::vector<Tensor>& list) {
    std::vector<T*> out;
    for (Tensor& t : list) {
        out.push_back(&t);
    }
    return out;
}

std::vector<const Tensor*> const_pointers(const std::vector<Tensor>& list) {
    std::vector<const Tensor*> out;
    for (const Tensor& t : list) {
        out.push_back(&t);
    }
    return out;
}

// 150 tensors: more than one launch holds at depth 3 and 4 (TensorList capacities).
constexpr std::size_t kTensors = 150;

TEST_P(CudaMultiTensor, AdamMatchesOneUpdatePerTensorBitForBit) {
    std::vector<Tensor> parameters = make_list(kTensors, DType::f32, 1, 1.0f);
    const std::vector<Tensor> gradients = make_list(kTensors, GetParam(), 2, 4.0f);
    std::vector<Tensor> first = make_list(kTensors, DType::f32, 3, 0.1f);
    std::vector<Tensor> second = make_list(kTensors, DType::f32, 4, 0.01f, true);
    std::vector<Tensor> p2 = copies(parameters);
    std::vector<Tensor> m2 = copies(first);
    std::vector<Tensor> v2 = copies(second);
    AdamSettings settings;
    settings.learning_rate = 1e-3;
    settings.step = 3;
    for (std::size_t i = 0; i < kTensors; ++i) {
        gpu_->adam_update(parameters[i], gradients[i], first[i], second[i], settings, 0.5,
                          Tensor());
    }
    gpu_->adam_update_multi(pointers<Tensor>(p2), const_pointers(gradients), pointers<Tensor>(m2),
                            pointers<Tensor>(v2), settings, 0.5, Tensor());
    EXPECT_EQ(bytes(p2), bytes(parameters));
    EXPECT_EQ(bytes(m2), bytes(first));
    EXPECT_EQ(bytes(v2), bytes(second));
}

TEST_P(CudaMultiTensor, SgdMatchesOneUpdatePerTensorBitForBit) {
    std::vector<Tensor> parameters = make_list(kTensors, DType::f32, 5, 1.0f);
    const std::vector<Tensor> gradients = make_list(kTensors, GetParam(), 6, 4.0f);
    std::vector<Tensor> velocities = make_list(kTensors, DType::f32, 7, 0.1f);
    std::vector<Tensor> p2 = copies(parameters);
    std::vector<Tensor> vel2 = copies(velocities);
    const SgdSettings settings{0.05, 0.9, 1e-3};
    for (std::size_t i = 0; i < kTensors; ++i) {
        gpu_->sgd_update(parameters[i], gradients[i], velocities[i], settings, 0.25, Tensor());
    }
    gpu_->sgd_update_multi(pointers<Tensor>(p2), const_pointers(gradients), pointers<Tensor>(vel2),
                           settings, 0.25, Tensor());
    EXPECT_EQ(bytes(p2), bytes(parameters));
    EXPECT_EQ(bytes(vel2), bytes(velocities));
}

TEST_P(CudaMultiTensor, ASetOverflowFlagLeavesEveryListedTensorUntouched) {
    std::vector<Tensor> parameters = make_list(kTensors, DType::f32, 8, 1.0f);
    const std::vector<Tensor> gradients = make_list(kTensors, GetParam(), 9, 4.0f);
    std::vector<Tensor> first = make_list(kTensors, DType::f32, 10, 0.1f);
    std::vector<Tensor> second = make_list(kTensors, DType::f32, 11, 0.1f, true);
    const std::vector<std::uint8_t> before = bytes(parameters);
    Tensor overflow = tensors_->allocate(Shape{1}, DType::f32);
    gpu_->fill(overflow, 1.0);
    AdamSettings settings;
    settings.step = 1;
    gpu_->adam_update_multi(pointers<Tensor>(parameters), const_pointers(gradients),
                            pointers<Tensor>(first), pointers<Tensor>(second), settings, 1.0,
                            overflow);
    EXPECT_EQ(bytes(parameters), before);
}

TEST_P(CudaMultiTensor, FiniteCheckFindsOneBadElementAnywhereInTheList) {
    const std::vector<Tensor> gradients = make_list(kTensors, GetParam(), 12, 4.0f);
    Tensor overflow = tensors_->allocate(Shape{1}, DType::f32);
    gpu_->fill(overflow, 0.0);
    gpu_->flag_non_finite_multi(const_pointers(gradients), overflow);
    float flag = -1.0f;
    gpu_->copy_to_host(overflow, &flag);
    EXPECT_EQ(flag, 0.0f);
    // An infinity in the last element of tensor 140 (past the first launch's list).
    Tensor& target = const_cast<Tensor&>(gradients[140]);
    std::vector<float> values(static_cast<std::size_t>(target.elements()), 0.0f);
    values.back() = std::numeric_limits<float>::infinity();
    Tensor staging = tensors_->allocate(target.shape(), DType::f32);
    gpu_->copy_from_host(values.data(), staging);
    gpu_->convert(staging, target);
    gpu_->flag_non_finite_multi(const_pointers(gradients), overflow);
    gpu_->copy_to_host(overflow, &flag);
    EXPECT_EQ(flag, 1.0f);
}

TEST_P(CudaMultiTensor, ConvertMatchesOneConversionPerTensorBitForBit) {
    const std::vector<Tensor> masters = make_list(kTensors, DType::f32, 13, 3.0f);
    std::vector<Tensor> single;
    std::vector<Tensor> listed;
    for (const Tensor& m : masters) {
        single.push_back(tensors_->allocate(m.shape(), GetParam()));
        listed.push_back(tensors_->allocate(m.shape(), GetParam()));
        gpu_->convert(m, single.back());
    }
    gpu_->convert_multi(const_pointers(masters), pointers<Tensor>(listed));
    EXPECT_EQ(bytes(listed), bytes(single));
}

INSTANTIATE_TEST_SUITE_P(GradientTypes, CudaMultiTensor,
                         testing::Values(DType::f32, DType::f16, DType::bf16),
                         [](const auto& param_info) {
                             return std::string(dtype_name(param_info.param));
                         });

// The parameter work of one fp16 step (Adam, the finite check, the 16-bit copies) in
// launches: one per list and gradient dtype, the same for resnet-8 (29 parameter tensors) and
// resnet-20 (65). Before the multi-tensor calls it was one per
// parameter and operation.
TEST(CudaMultiTensorLaunches, ParameterWorkPerStepIsOneLaunchPerListAndDtype) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    for (const char* depth : {"8", "20"}) {
        std::unique_ptr<Backend> gpu = create_backend("cuda", BackendOptions{});
        TensorAllocator tensors(gpu->raw_allocator());
        std::unique_ptr<Model> model =
            build_model("resnet", {{"depth", depth}}, Shape{3, 32, 32}, 10);
        StepContext context{*gpu, tensors, policy_for(Precision::fp16),
                            gpu->storage_dtype(Precision::fp16)};
        model->materialize(context, 1);
        AdamSettings settings;
        settings.learning_rate = 1e-3;
        Adam adam(model->parameters(), context, settings);
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
