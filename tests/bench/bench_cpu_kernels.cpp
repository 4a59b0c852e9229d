// Google Benchmark microbenchmarks of the CPU backend's convolution and GEMM at the
// shapes of the seed CNN and every convolution of ResNet-8 width 16 on 28x28 inputs.
// The last argument is the backend's thread count: with 1 the CPU time column is the
// op's own cost, which stays comparable on a busy machine.
#include <benchmark/benchmark.h>

#include "workloads/backends/cpu/CpuBackend.hpp"
#include "workloads/memory/TensorAllocator.hpp"

namespace {

using namespace trainscope::workloads;

struct Fixture {
    explicit Fixture(int threads) : backend(threads) {}
    CpuBackend backend;
    TensorAllocator tensors{backend.raw_allocator()};

    Tensor make(const Shape& shape, double value) {
        Tensor t = tensors.allocate(shape, DType::f32);
        backend.fill(t, value);
        return t;
    }
};

// args: batch, in channels, height/width, out channels, kernel, padding, stride, threads
void conv_shapes(benchmark::internal::Benchmark* b) {
    for (const std::int64_t threads : {1, 0}) {
        b->Args({64, 1, 28, 32, 3, 0, 1, threads});   // seed-cnn
        b->Args({64, 1, 28, 16, 3, 1, 1, threads});   // resnet stem
        b->Args({64, 16, 28, 16, 3, 1, 1, threads});  // resnet first stage
        b->Args({64, 16, 28, 32, 3, 1, 2, threads});  // second stage, down-sampling
        b->Args({64, 16, 28, 32, 1, 0, 2, threads});  // second stage, shortcut
        b->Args({64, 32, 14, 32, 3, 1, 1, threads});  // second stage
        b->Args({64, 32, 14, 64, 3, 1, 2, threads});  // third stage, down-sampling
        b->Args({64, 32, 14, 64, 1, 0, 2, threads});  // third stage, shortcut
        b->Args({64, 64, 7, 64, 3, 1, 1, threads});   // third stage
    }
}

struct ConvCase {
    std::int64_t n, c, hw, k, r;
    Conv2dGeometry geometry;
    std::int64_t out;
    int threads;
};

ConvCase conv_case(const benchmark::State& state) {
    ConvCase c{state.range(0),
               state.range(1),
               state.range(2),
               state.range(3),
               state.range(4),
               Conv2dGeometry{static_cast<int>(state.range(6)), static_cast<int>(state.range(5))},
               0,
               static_cast<int>(state.range(7))};
    c.out = conv_output_extent(c.hw, c.r, c.geometry.stride, c.geometry.padding);
    return c;
}

void BM_cpu_conv_forward(benchmark::State& state) {
    const auto [n, c, hw, k, r, g, out, threads] = conv_case(state);
    Fixture f(threads);
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
    const auto [n, c, hw, k, r, g, out, threads] = conv_case(state);
    Fixture f(threads);
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
    const auto [n, c, hw, k, r, g, out, threads] = conv_case(state);
    Fixture f(threads);
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
    Fixture f(0);
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

namespace {

// Batch norm at ResNet-8's activation shapes; args: batch, channels, height/width, threads.
void BM_cpu_batch_norm_backward(benchmark::State& state) {
    Fixture f(static_cast<int>(state.range(3)));
    const Shape shape{state.range(0), state.range(1), state.range(2), state.range(2)};
    const Shape channels{state.range(1)};
    Tensor x = f.make(shape, 0.5);
    Tensor dy = f.make(shape, 0.1);
    Tensor dx = f.make(shape, 0.0);
    Tensor gamma = f.make(channels, 1.0);
    Tensor mean = f.make(channels, 0.4);
    Tensor inv_std = f.make(channels, 2.0);
    Tensor dgamma = f.make(channels, 0.0);
    Tensor dbeta = f.make(channels, 0.0);
    for (auto _ : state) {
        f.backend.batch_norm_backward(x, dy, gamma, mean, inv_std, dx, dgamma, dbeta,
                                      BatchNormSettings{});
        benchmark::DoNotOptimize(dx.raw());
    }
    state.SetBytesProcessed(state.iterations() * 3 * x.bytes());
}
BENCHMARK(BM_cpu_batch_norm_backward)
    ->Args({64, 16, 28, 1})
    ->Args({64, 64, 7, 1})
    ->Unit(benchmark::kMicrosecond);

void BM_cpu_batch_norm_forward_training(benchmark::State& state) {
    Fixture f(static_cast<int>(state.range(3)));
    const Shape shape{state.range(0), state.range(1), state.range(2), state.range(2)};
    const Shape channels{state.range(1)};
    Tensor x = f.make(shape, 0.5);
    Tensor y = f.make(shape, 0.0);
    Tensor gamma = f.make(channels, 1.0);
    Tensor beta = f.make(channels, 0.0);
    Tensor running_mean = f.make(channels, 0.0);
    Tensor running_var = f.make(channels, 1.0);
    Tensor saved_mean = f.make(channels, 0.0);
    Tensor saved_inv_std = f.make(channels, 0.0);
    for (auto _ : state) {
        f.backend.batch_norm_forward_training(x, gamma, beta, y, running_mean, running_var,
                                              saved_mean, saved_inv_std, BatchNormSettings{}, true);
        benchmark::DoNotOptimize(y.raw());
    }
    state.SetBytesProcessed(state.iterations() * 2 * x.bytes());
}
BENCHMARK(BM_cpu_batch_norm_forward_training)
    ->Args({64, 16, 28, 1})
    ->Args({64, 64, 7, 1})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
