// Convolution and GEMM throughput of the CUDA backend at each precision it runs (fp32
// without tensor cores, tf32, fp64, and fp16/bf16 on 16-bit tensors with fp32
// accumulation), as TFLOP/s. Skips with an error without a device.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/memory/TensorAllocator.hpp"

namespace trainscope::workloads {
namespace {

struct BenchPrecision {
    DType dtype;
    MathMode math;
};

BenchPrecision precision_of(std::int64_t index) {
    switch (index) {
        case 1:
            return {DType::f32, MathMode::tf32};
        case 2:
            return {DType::f64, MathMode::native};
        case 3:
            return {DType::f16, MathMode::native};
        case 4:
            return {DType::bf16, MathMode::native};
        default:
            return {DType::f32, MathMode::native};
    }
}

const char* precision_label(std::int64_t index) {
    switch (index) {
        case 1:
            return "tf32";
        case 2:
            return "fp64";
        case 3:
            return "fp16";
        case 4:
            return "bf16";
        default:
            return "fp32";
    }
}

std::string missing_device() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        return "no CUDA device";
    }
    return {};
}

void BM_CudaGemm(benchmark::State& state) {
    if (const std::string missing = missing_device(); !missing.empty()) {
        state.SkipWithError(missing.c_str());
        return;
    }
    const std::int64_t n = state.range(0);
    const BenchPrecision precision = precision_of(state.range(1));
    std::unique_ptr<Backend> backend = create_backend("cuda", BackendOptions{});
    backend->set_math_mode(precision.math);
    {
        TensorAllocator tensors(backend->raw_allocator());
        Tensor a = tensors.allocate({n, n}, precision.dtype);
        Tensor b = tensors.allocate({n, n}, precision.dtype);
        Tensor c = tensors.allocate({n, n}, precision.dtype);
        backend->fill(a, 0.5);
        backend->fill(b, 0.25);
        backend->gemm(false, false, 1.0, a, b, 0.0, c);  // warm-up: handle and kernel choice
        backend->synchronize();
        for (auto _ : state) {
            backend->gemm(false, false, 1.0, a, b, 0.0, c);
            backend->synchronize();
        }
    }
    const double flops =
        2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
    state.counters["TFLOP/s"] = benchmark::Counter(
        flops * 1e-12 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.SetLabel(precision_label(state.range(1)));
}

void BM_CudaConvForward(benchmark::State& state) {
    if (const std::string missing = missing_device(); !missing.empty()) {
        state.SkipWithError(missing.c_str());
        return;
    }
    const std::int64_t channels = state.range(0);
    const BenchPrecision precision = precision_of(state.range(1));
    const std::int64_t batch = 64, size = 32, kernel = 3;
    std::unique_ptr<Backend> backend = create_backend("cuda", BackendOptions{});
    backend->set_math_mode(precision.math);
    {
        TensorAllocator tensors(backend->raw_allocator());
        Tensor x = tensors.allocate({batch, channels, size, size}, precision.dtype);
        Tensor w = tensors.allocate({channels, channels, kernel, kernel}, precision.dtype);
        Tensor y = tensors.allocate({batch, channels, size, size}, precision.dtype);
        backend->fill(x, 0.5);
        backend->fill(w, 0.01);
        const Conv2dGeometry geometry{1, 1};
        backend->conv2d_forward(x, w, Tensor(), y, geometry);  // warm-up: algorithm choice
        backend->synchronize();
        for (auto _ : state) {
            backend->conv2d_forward(x, w, Tensor(), y, geometry);
            backend->synchronize();
        }
    }
    const double flops = 2.0 * static_cast<double>(batch * channels * size * size) *
                         static_cast<double>(channels * kernel * kernel);
    state.counters["TFLOP/s"] = benchmark::Counter(
        flops * 1e-12 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.SetLabel(precision_label(state.range(1)));
}

// Second argument: 0 fp32, 1 tf32, 2 fp64, 3 fp16, 4 bf16.
BENCHMARK(BM_CudaGemm)->ArgsProduct({{1024, 4096}, {0, 1, 2, 3, 4}})->UseRealTime();
BENCHMARK(BM_CudaConvForward)->ArgsProduct({{64, 256}, {0, 1, 2, 3, 4}})->UseRealTime();

}  // namespace
}  // namespace trainscope::workloads

BENCHMARK_MAIN();
