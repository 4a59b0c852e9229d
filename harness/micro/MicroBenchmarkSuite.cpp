#include "harness/micro/MicroBenchmarkSuite.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <functional>
#include <memory>

#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/numerics/Precision.hpp"

namespace trainscope::harness {

namespace {

using workloads::Backend;
using workloads::DType;
using workloads::Shape;
using workloads::Tensor;

// One backend and its tensors for the duration of a benchmark.
struct OpBench {
    std::unique_ptr<Backend> backend;
    std::unique_ptr<workloads::TensorAllocator> tensors;
    DType dtype = DType::f32;

    OpBench(workloads::BackendKind kind, workloads::Precision precision, int threads) {
        workloads::BackendOptions options;
        options.threads = threads;
        backend = workloads::create_backend(to_string(kind), options);
        tensors = std::make_unique<workloads::TensorAllocator>(backend->raw_allocator());
        const workloads::PrecisionPolicy policy = workloads::policy_for(precision);
        dtype = policy.storage_is_fp64 ? DType::f64 : DType::f32;
        backend->set_math_mode(policy.math);
    }
    Tensor make(const Shape& shape, double value) {
        Tensor t = tensors->allocate(shape, dtype);
        backend->fill(t, value);
        return t;
    }
};

struct ConvShape {
    const char* model;
    std::int64_t n, c, hw, k, r;
    int pad;
};
constexpr ConvShape kConvShapes[] = {
    {"seed-cnn", 64, 1, 28, 32, 3, 0},           {"lenet5", 64, 1, 28, 6, 5, 2},
    {"resnet-stage1-w16", 64, 16, 28, 16, 3, 1}, {"resnet-stage2-w16", 64, 32, 14, 32, 3, 1},
    {"resnet-stage3-w16", 64, 64, 7, 64, 3, 1},
};

struct GemmShape {
    const char* model;
    std::int64_t m, n, k;  // C[m,n] = A[m,k] * B[n,k]^T, as a dense layer computes it
};
constexpr GemmShape kGemmShapes[] = {
    {"seed-cnn-dense", 64, 10, 5408},
    {"lenet5-fc120", 64, 120, 400},
    {"square-1024", 1024, 1024, 1024},
};

using Body = std::function<void(benchmark::State&, OpBench&)>;

void add(std::vector<MicroBenchmarkInfo>& out, workloads::BackendKind backend,
         workloads::Precision precision, int threads, const std::string& op,
         const std::string& model, const std::string& shape, Body body) {
    const std::string precision_name = to_string(precision);
    MicroBenchmarkInfo info{fmt::format("{}/{}/{}", op, precision_name, model), op, shape,
                            precision_name, to_string(backend)};
    benchmark::RegisterBenchmark(info.name.c_str(),
                                 [backend, precision, threads, body](benchmark::State& state) {
                                     try {
                                         OpBench bench(backend, precision, threads);
                                         body(state, bench);
                                     } catch (const std::exception& e) {
                                         state.SkipWithError(e.what());
                                     }
                                 })
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
    out.push_back(std::move(info));
}

void flops_counter(benchmark::State& state, double flops_per_iteration) {
    state.counters["FLOP/s"] =
        benchmark::Counter(flops_per_iteration * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

void register_conv(std::vector<MicroBenchmarkInfo>& out, workloads::BackendKind backend,
                   workloads::Precision precision, int threads, const ConvShape& s) {
    const std::string shape =
        fmt::format("n{} c{} h{} w{} k{} r{} pad{}", s.n, s.c, s.hw, s.hw, s.k, s.r, s.pad);
    const std::int64_t p = workloads::conv_output_extent(s.hw, s.r, 1, s.pad);
    const double flops = 2.0 * static_cast<double>(s.n * s.k * p * p * s.c * s.r * s.r);
    const workloads::Conv2dGeometry g{1, s.pad};
    add(out, backend, precision, threads, "conv2d_forward", s.model, shape,
        [=](benchmark::State& state, OpBench& b) {
            Tensor x = b.make(Shape{s.n, s.c, s.hw, s.hw}, 0.5);
            Tensor w = b.make(Shape{s.k, s.c, s.r, s.r}, 0.1);
            Tensor bias = b.make(Shape{s.k}, 0.0);
            Tensor y = b.make(Shape{s.n, s.k, p, p}, 0.0);
            for (auto _ : state) {
                b.backend->conv2d_forward(x, w, bias, y, g);
                b.backend->synchronize();
            }
            flops_counter(state, flops);
            state.SetItemsProcessed(state.iterations() * s.n);
        });
    add(out, backend, precision, threads, "conv2d_backward_data", s.model, shape,
        [=](benchmark::State& state, OpBench& b) {
            Tensor dy = b.make(Shape{s.n, s.k, p, p}, 0.1);
            Tensor w = b.make(Shape{s.k, s.c, s.r, s.r}, 0.1);
            Tensor dx = b.make(Shape{s.n, s.c, s.hw, s.hw}, 0.0);
            for (auto _ : state) {
                b.backend->conv2d_backward_data(dy, w, dx, g);
                b.backend->synchronize();
            }
            flops_counter(state, flops);
            state.SetItemsProcessed(state.iterations() * s.n);
        });
    add(out, backend, precision, threads, "conv2d_backward_filter", s.model, shape,
        [=](benchmark::State& state, OpBench& b) {
            Tensor x = b.make(Shape{s.n, s.c, s.hw, s.hw}, 0.5);
            Tensor dy = b.make(Shape{s.n, s.k, p, p}, 0.1);
            Tensor dw = b.make(Shape{s.k, s.c, s.r, s.r}, 0.0);
            Tensor db = b.make(Shape{s.k}, 0.0);
            for (auto _ : state) {
                b.backend->conv2d_backward_filter(x, dy, dw, db, g);
                b.backend->synchronize();
            }
            flops_counter(state, flops);
            state.SetItemsProcessed(state.iterations() * s.n);
        });
}

void register_gemm(std::vector<MicroBenchmarkInfo>& out, workloads::BackendKind backend,
                   workloads::Precision precision, int threads, const GemmShape& s) {
    const std::string shape = fmt::format("m{} n{} k{}", s.m, s.n, s.k);
    const double flops = 2.0 * static_cast<double>(s.m * s.n * s.k);
    add(out, backend, precision, threads, "gemm", s.model, shape,
        [=](benchmark::State& state, OpBench& b) {
            Tensor a = b.make(Shape{s.m, s.k}, 0.5);
            Tensor w = b.make(Shape{s.n, s.k}, 0.1);
            Tensor c = b.make(Shape{s.m, s.n}, 0.0);
            for (auto _ : state) {
                b.backend->gemm(false, true, 1.0, a, w, 0.0, c);
                b.backend->synchronize();
            }
            flops_counter(state, flops);
            state.SetItemsProcessed(state.iterations() * s.m);
        });
}

void register_elementwise(std::vector<MicroBenchmarkInfo>& out, workloads::BackendKind backend,
                          workloads::Precision precision, int threads) {
    const Shape act{64, 32, 26, 26};  // seed-cnn's convolution output
    add(out, backend, precision, threads, "relu_forward", "seed-cnn", "n64 c32 h26 w26",
        [=](benchmark::State& state, OpBench& b) {
            Tensor x = b.make(act, -0.25);
            Tensor y = b.make(act, 0.0);
            for (auto _ : state) {
                b.backend->relu_forward(x, y);
                b.backend->synchronize();
            }
            state.SetItemsProcessed(state.iterations() * act.elements());
        });
    add(out, backend, precision, threads, "max_pool_forward", "seed-cnn", "n64 c32 h26 w26 window2",
        [=](benchmark::State& state, OpBench& b) {
            Tensor x = b.make(act, 0.5);
            Tensor y = b.make(Shape{64, 32, 13, 13}, 0.0);
            const workloads::Pool2dGeometry g{2, 2, 0};
            for (auto _ : state) {
                b.backend->max_pool_forward(x, y, g);
                b.backend->synchronize();
            }
            state.SetItemsProcessed(state.iterations() * act.elements());
        });
    const Shape bn{64, 16, 28, 28};
    add(out, backend, precision, threads, "batch_norm_forward_training", "resnet-stage1-w16",
        "n64 c16 h28 w28", [=](benchmark::State& state, OpBench& b) {
            Tensor x = b.make(bn, 0.5);
            Tensor gamma = b.make(Shape{16}, 1.0);
            Tensor beta = b.make(Shape{16}, 0.0);
            Tensor y = b.make(bn, 0.0);
            Tensor mean = b.make(Shape{16}, 0.0);
            Tensor var = b.make(Shape{16}, 1.0);
            Tensor saved_mean = b.make(Shape{16}, 0.0);
            Tensor saved_inv_std = b.make(Shape{16}, 0.0);
            for (auto _ : state) {
                b.backend->batch_norm_forward_training(x, gamma, beta, y, mean, var, saved_mean,
                                                       saved_inv_std,
                                                       workloads::BatchNormSettings{}, true);
                b.backend->synchronize();
            }
            state.SetItemsProcessed(state.iterations() * bn.elements());
        });
    const Shape params{54410};  // seed-cnn's parameters
    add(out, backend, precision, threads, "adam_update", "seed-cnn", "54410 parameters",
        [=](benchmark::State& state, OpBench& b) {
            Tensor p = b.make(params, 0.1);
            Tensor grad = b.make(params, 0.01);
            Tensor m = b.make(params, 0.0);
            Tensor v = b.make(params, 0.0);
            workloads::AdamSettings settings;
            for (auto _ : state) {
                b.backend->adam_update(p, grad, m, v, settings, 1.0, Tensor());
                b.backend->synchronize();
            }
            state.SetItemsProcessed(state.iterations() * params.elements());
        });
}

}  // namespace

std::vector<MicroBenchmarkInfo> register_micro_benchmarks(
    workloads::BackendKind backend, const std::vector<workloads::Precision>& precisions,
    int threads) {
    std::vector<MicroBenchmarkInfo> registered;
    for (const workloads::Precision precision : precisions) {
        for (const auto& s : kConvShapes)
            register_conv(registered, backend, precision, threads, s);
        for (const auto& s : kGemmShapes)
            register_gemm(registered, backend, precision, threads, s);
        register_elementwise(registered, backend, precision, threads);
    }
    return registered;
}

}  // namespace trainscope::harness
