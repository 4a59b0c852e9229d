#pragma once

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "workloads/backends/cpu/CpuBackend.hpp"
#include "workloads/datasets/DatasetSelection.hpp"
#include "workloads/layers/Layer.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/training/TrainingConfig.hpp"

namespace trainscope::workloads::testing {

// A short synthetic run of seed-cnn or ResNet-8 (depth 8, width 4) on 1x12x12 images: 8
// steps, 2 of them warm-up.
inline TrainingConfig small_synthetic_run(const std::string& model, const std::string& precision) {
    TrainingConfig config;
    config.model = model;
    if (model == "resnet") {
        config.model_params = {{"depth", "8"}, {"width", "4"}};
    }
    config.dataset = "synthetic";
    config.input_shape = "1x12x12";
    config.classes = 4;
    config.batch = 8;
    config.steps = 8;
    config.warmup_steps = 2;
    config.threads = 2;
    config.precision = parse_precision(precision);
    config.evaluate = false;
    return config;  // allocator: the default pool
}

// Tests that train on Fashion-MNIST skip, saying why, where Debian's package is missing.
#define TS_REQUIRE_FASHION_MNIST()                                                                 \
    if (!std::filesystem::exists(                                                                  \
            std::filesystem::path(::trainscope::workloads::kFashionMnistDir) /                     \
            "train-images-idx3-ubyte.gz")) {                                                       \
        GTEST_SKIP() << "Fashion-MNIST missing: scripts/bootstrap installs dataset-fashion-mnist"; \
    }

// A CPU backend with a tensor allocator and a step context, plus host<->tensor helpers.
struct CpuHarness {
    explicit CpuHarness(Precision precision = Precision::fp64, int threads = 1)
        : backend(threads),
          tensors(backend.raw_allocator()),
          context{backend,
                  tensors,
                  policy_for(precision),
                  precision == Precision::fp64 ? DType::f64 : DType::f32,
                  true,
                  false} {}

    Tensor upload(const Shape& shape, const std::vector<double>& values) {
        Tensor t = context.make(shape);
        if (t.dtype() == DType::f64) {
            backend.copy_from_host(values.data(), t);
        } else {
            std::vector<float> narrow(values.begin(), values.end());
            backend.copy_from_host(narrow.data(), t);
        }
        return t;
    }

    std::vector<double> download(const Tensor& t) {
        std::vector<double> values(static_cast<std::size_t>(t.elements()));
        if (t.dtype() == DType::f64) {
            backend.copy_to_host(t, values.data());
        } else {
            std::vector<float> narrow(values.size());
            backend.copy_to_host(t, narrow.data());
            values.assign(narrow.begin(), narrow.end());
        }
        return values;
    }

    CpuBackend backend;
    TensorAllocator tensors;
    StepContext context;
};

inline std::vector<double> random_values(std::int64_t count, std::uint64_t seed, double low = -1.0,
                                         double high = 1.0) {
    std::mt19937_64 engine(seed);
    std::uniform_real_distribution<double> uniform(low, high);
    std::vector<double> values(static_cast<std::size_t>(count));
    for (double& v : values) {
        v = uniform(engine);
    }
    return values;
}

}  // namespace trainscope::workloads::testing
