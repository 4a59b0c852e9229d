// CudaBackend::environment(): the device, library versions, the run's memory and
// algorithm choices and its memory/transfer figures, for the run's record.
#include <cublas_v2.h>
#include <cudnn.h>

#include <cstdlib>
#include <string>

#include "workloads/backends/cuda/CudaBackend.hpp"
#include "workloads/backends/cuda/CudnnLegacyPooling.hpp"
#include "workloads/backends/cuda/PrecisionSelection.hpp"

namespace trainscope::workloads {
namespace {

std::string version_text(int encoded, int major_divisor, int minor_divisor) {
    // CUDA encodes 1000*major + 10*minor; cuDNN 9 encodes 10000*major + 100*minor + patch.
    return std::to_string(encoded / major_divisor) + "." +
           std::to_string((encoded % major_divisor) / minor_divisor);
}

std::string cublas_version() {
    int major = 0;
    int minor = 0;
    int patch = 0;
    TS_CUBLAS_CHECK(cublasGetProperty(MAJOR_VERSION, &major));
    TS_CUBLAS_CHECK(cublasGetProperty(MINOR_VERSION, &minor));
    TS_CUBLAS_CHECK(cublasGetProperty(PATCH_LEVEL, &patch));
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

void add_device_facts(int device, std::map<std::string, std::string>& env) {
    cudaDeviceProp prop{};
    TS_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    env["device"] = std::to_string(device);
    env["device_name"] = prop.name;
    env["compute_capability"] = std::to_string(prop.major) + "." + std::to_string(prop.minor);
    env["sm_count"] = std::to_string(prop.multiProcessorCount);
    env["device_memory_bytes"] = std::to_string(prop.totalGlobalMem);
    int clock_khz = 0;
    TS_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
    env["sm_clock_khz"] = std::to_string(clock_khz);
    TS_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device));
    env["memory_clock_khz"] = std::to_string(clock_khz);
    int driver = 0;
    int runtime = 0;
    TS_CUDA_CHECK(cudaDriverGetVersion(&driver));
    TS_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    env["cuda_driver"] = version_text(driver, 1000, 10);
    env["cuda_runtime"] = version_text(runtime, 1000, 10);
}

}  // namespace

std::map<std::string, std::string> CudaBackend::environment() const {
    std::map<std::string, std::string> env;
    env["backend"] = "cuda";
    add_device_facts(options_.device, env);
    env["cudnn"] = std::to_string(cudnnGetVersion());
    env["cublas"] = cublas_version();
    // Variables that change which math the libraries run for fp32 behind the API's back:
    // the TF32 override, and cuBLAS's fp32 emulation on BF16 tensor cores (BF16x9,
    // cc 10.x), which CUBLAS_COMPUTE_32F permits when these ask for it.
    for (const char* name :
         {"NVIDIA_TF32_OVERRIDE", "CUBLAS_EMULATE_SINGLE_PRECISION", "CUBLAS_EMULATION_STRATEGY"}) {
        if (const char* value = std::getenv(name)) {
            env[name] = value;
        }
    }
    const cuda::LibraryMath library = cuda::library_math_for(DType::f32, math_);
    env["cudnn_math_f32"] = cuda::cudnn_math_name(library.cudnn_math);
    env["cublas_compute_f32"] = cuda::cublas_compute_name(library.cublas_compute);
    // fp16/bf16 runs store 16-bit tensors (storage_dtype) and run cuDNN/cuBLAS on them.
    env["half_precision_storage"] =
        "native: f16/bf16 activations, gradients and weight copies; fp32 masters, optimizer "
        "state and batch-norm parameters; cuDNN CUDNN_TENSOR_OP_MATH with float compute, "
        "cublasGemmEx CUBLAS_COMPUTE_32F";
    env["cudnn_api"] =
        "legacy (cudnnConvolution*/cudnnBatchNormalization*/cudnnPooling*/cudnnActivation*)";
    // Which path ran max/average pooling and ReLU: "cudnn" unless cuDNN refused an
    // (op, dtype), which then ran on own kernels (CudnnFallbacks).
    env["pooling"] = pooling_fallbacks_.describe();
    env["activation"] = activation_fallbacks_.describe();
    env["cudnn_pooling_modes"] =
        std::string("max ") + cuda::cudnn_pooling_mode_name(cuda::PoolKind::max) + ", average " +
        cuda::cudnn_pooling_mode_name(cuda::PoolKind::average) + ", " + cuda::cudnn_nan_rule_name();
    env["global_avg_pool"] = "own kernels";
    // PyTorch's rule: cuDNN batch norm never sees bf16 input (docs/cuda-backend.md).
    env["batch_norm_bf16"] = "own kernels (cuDNN batch norm is not used for bf16)";
    env["cudnn_algo"] =
        to_string(options_.exhaustive_algorithms ? CudnnAlgo::exhaustive : CudnnAlgo::heuristic);
    env["cudnn_workspace_limit_bytes"] = std::to_string(options_.workspace_limit_bytes);
    for (const auto& [problem, choice] : convolutions_.chosen_algorithms()) {
        env["cudnn_algorithm/" + problem] = choice;
    }
    env["allocator"] = cuda::to_string(options_.allocation);
    env["raw_allocator"] = allocator_->name();
    env["host_memory"] = cuda::to_string(options_.host_memory);
    env["transfer"] = cuda::to_string(options_.transfer);
    env["placement"] = cuda::to_string(options_.placement);
    env["cuda_graph"] = graph_ ? "on" : "off";
    if (graph_) {
        // Capture, instantiation and upload of the one captured step (host wall time).
        env["cuda_graph_captured"] = graph_->captured() ? "true" : "false";
        env["cuda_graph_capture_ms"] = std::to_string(graph_->capture_ms());
        env["cuda_graph_captures"] = std::to_string(graph_->captures());
        env["cuda_graph_nodes"] = std::to_string(graph_->nodes());
        env["cuda_graph_replays"] = std::to_string(graph_->replays());
    }
    env["allocator_peak_bytes"] = std::to_string(allocator_->counter().peak_bytes());
    env["allocator_calls"] = std::to_string(allocator_->counter().allocations());
    env["device_used_peak_bytes"] = std::to_string(peak_device_used_bytes_);
    env["h2d_bytes"] = std::to_string(h2d_.bytes());
    env["h2d_time_ms"] = std::to_string(h2d_.time_ms());
    env["d2h_bytes"] = std::to_string(d2h_bytes_ + deferred_loss_.d2h_bytes());
    env["stream_intervals"] = std::to_string(step_timer_.intervals());
    env["stream_interval_total_ms"] = std::to_string(step_timer_.total_ms());
    return env;
}

}  // namespace trainscope::workloads
