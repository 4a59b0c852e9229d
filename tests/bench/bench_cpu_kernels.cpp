// Google Benchmark microbenchmarks of the CPU backend's convolution and GEMM at the
// shapes of the seed CNN and a ResNet stage.
#include <benchmark/benchmark.h>

#include "workloads/backends/cpu/CpuBackend.hpp"
#include "workloads/memory/TensorAllocator.hpp"

namespace {

using namespace trainscope::workloads;

struct Fixture {
    CpuBackend backend{0};
    TensorAllocator tensors{backend.raw_allocator()};

    Tensor make(const Shape& shape, double value) {
        Tensor t = tensors.allocate(shape, DType::f32);
        backend.fill(t, value);
        return t;
    }
};

// args: batch, in channels, height/width, out channels, kernel, padding
void conv_shapes(benchmark::internal::Benchmark* b) {
    b->Args({64, 1, 28, 32, 3, 0});   // seed-cnn
    b->Args({64, 16, 28, 16, 3, 1});  // resnet width 16, first stage
    b->Args({64, 32, 14, 32, 3, 1});  // second stage
}

void BM_cpu_conv_forward(benchmark::State& state) {
    Fixture f;
    const auto [n, c, hw, k, r, pad] =
        std::array{state.range(0), state.range(1), state.range(2), state.range(3),
                   state.range(4), state.range(5)};
    const Conv2dGeometry g{1, static_cast<int>(pad)};
    const std::int64_t out = conv_output_extent(hw, r, 1, static_cast<int>(pad));
    Tensor x = f.make(Shape{n, c, hw, hw}, 0.5);
    Tensor w = f.make(Shape{k, c, r, r}, 0.1);
    Tensor bias;
    Tensor y = f.make(Shape{n, k, out, out}, 0.0);
    for (auto _ : state) {
        f.backend.conv2d_forward(x, w, bias, y, g);
        benchmark::DoNotOptimize(y.raw());
    }
    state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_cpu_conv_forward)->Apply(conv_shapes)->Unit(benchmark::kMicrosecond);

void BM_cpu_conv_backward_filter(benchmark::State& state) {
    Fixture f;
    const auto [n, c, hw, k, r, pad] =
        std::array{state.range(0), state.range(1), state.range(2), state.range(3),
                   state.range(4), state.range(5)};
    const Conv2dGeometry g{1, static_cast<int>(pad)};
    const std::int64_t out = conv_output_extent(hw, r, 1, static_cast<int>(pad));
    Tensor x = f.make(Shape{n, c, hw, hw}, 0.5);
    Tensor dy = f.make(Shape{n, k, out, out}, 0.1);
    Tensor dw = f.make(Shape{k, c, r, r}, 0.0);
    Tensor db = f.make(Shape{k}, 0.0);
    for (auto _ : state) {
        f.backend.conv2d_backward_filter(x, dy, dw, db, g);
        benchmark::DoNotOptimize(dw.raw());
    }
    state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_cpu_conv_backward_filter)->Apply(conv_shapes)->Unit(benchmark::kMicrosecond);

void BM_cpu_conv_backward_data(benchmark::State& state) {
    Fixture f;
    const auto [n, c, hw, k, r, pad] =
        std::array{state.range(0), state.range(1), state.range(2), state.range(3),
                   state.range(4), state.range(5)};
    const Conv2dGeometry g{1, static_cast<int>(pad)};
    const std::int64_t out = conv_output_extent(hw, r, 1, static_cast<int>(pad));
    Tensor dx = f.make(Shape{n, c, hw, hw}, 0.0);
    Tensor w = f.make(Shape{k, c, r, r}, 0.1);
    Tensor dy = f.make(Shape{n, k, out, out}, 0.1);
    for (auto _ : state) {
        f.backend.conv2d_backward_data(dy, w, dx, g);
        benchmark::DoNotOptimize(dx.raw());
    }
    state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_cpu_conv_backward_data)->Apply(conv_shapes)->Unit(benchmark::kMicrosecond);

// The seed CNN's dense layer: [batch, 5408] x [10, 5408]^T.
void BM_cpu_gemm_dense(benchmark::State& state) {
    Fixture f;
    const std::int64_t batch = state.range(0);
    Tensor x = f.make(Shape{batch, 5408}, 0.5);
    Tensor w = f.make(Shape{10, 5408}, 0.1);
    Tensor y = f.make(Shape{batch, 10}, 0.0);
    for (auto _ : state) {
        f.backend.gemm(false, true, 1.0, x, w, 0.0, y);
        benchmark::DoNotOptimize(y.raw());
    }
    state.SetItemsProcessed(state.iterations() * batch);
}
BENCHMARK(BM_cpu_gemm_dense)->Arg(32)->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

}  // namespace
