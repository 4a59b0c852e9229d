#include "profiler/analysis/KernelCategory.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace trainscope::profiler {

namespace {

std::string lowercase(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

template <std::size_t N>
bool contains_any(const std::string& name, const std::array<std::string_view, N>& patterns) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](std::string_view p) { return name.find(p) != std::string::npos; });
}

// Order matters: cuDNN batch-norm kernels contain "cudnn" and must not be counted as
// convolutions; implicit-GEMM convolutions contain "gemm" and must not count as GEMM.
constexpr std::array<std::string_view, 3> kMemcpyMemset{"memcpy", "memset", "memory copy"};
// Before every other pattern: NCCL's kernel names hold "AllReduce", "Sum", "f32"...
constexpr std::array<std::string_view, 2> kCommunication{"nccl", "rccl"};
constexpr std::array<std::string_view, 9> kOptimizer{"adam",    "sgd",         "multi_tensor_apply",
                                                     "lamb_",   "fused_optim", "momentum",
                                                     "rmsprop", "adagrad",     "optimizer"};
constexpr std::array<std::string_view, 11> kNormalization{
    "batch_norm", "batchnorm", "bn_fw",         "bn_bw",    "layer_norm", "layernorm",
    "group_norm", "groupnorm", "instance_norm", "rms_norm", "rmsnorm"};
constexpr std::array<std::string_view, 9> kConvolution{
    "conv", "cudnn", "fprop", "dgrad", "wgrad", "winograd", "im2col", "col2im", "implicit_gemm"};
constexpr std::array<std::string_view, 11> kGemm{"gemm",    "gemv",   "matmul", "cublas",
                                                 "cutlass", "xmma",   "wmma",   "gmma",
                                                 "s1688",   "s16816", "h884"};
constexpr std::array<std::string_view, 13> kReduction{
    "reduce",   "softmax",       "sum_kernel", "mean", "argmax", "argmin",     "pool",
    "nll_loss", "cross_entropy", "cumsum",     "scan", "topk",   "norm_kernel"};
constexpr std::array<std::string_view, 16> kElementwise{
    "elementwise", "pointwise", "vectorized", "unrolled", "fill", "dropout",
    "relu",        "gelu",      "silu",       "sigmoid",  "tanh", "copy",
    "transpose",   "cat_array", "catarray",   "index"};

// trainscope's own backend ops (the NVTX "trainscope.ops" ranges; a CPU-backend run's
// device work) that the patterns would miss or misplace, by exact name: "convert"
// contains "conv", "bias_bwd" names no pattern, and copy_h2d/copy_d2h are copies, not
// PyTorch's elementwise "copy" kernels. The other op names (conv_fwd, gemm, relu_bwd,
// max_pool_fwd, adam_update, ...) already match a pattern.
struct NamedOp {
    std::string_view name;
    KernelCategory category;
};
constexpr std::array<NamedOp, 9> kBackendOps{{
    {"add", KernelCategory::Elementwise},
    {"add_bias", KernelCategory::Elementwise},
    {"convert", KernelCategory::Elementwise},
    {"round_storage", KernelCategory::Elementwise},
    {"gather_rows", KernelCategory::Elementwise},
    {"bias_bwd", KernelCategory::Reduction},
    {"flag_non_finite", KernelCategory::Reduction},
    {"copy_h2d", KernelCategory::MemcpyMemset},
    {"copy_d2h", KernelCategory::MemcpyMemset},
}};

// PyTorch's operators whose names no pattern places (a PyTorch CPU trace's device work;
// a GPU trace's operator rows), by exact name after "aten::": the matrix products (addmm
// is Linear's forward, mm its backward; trainscope's counterpart is its gemm op) and
// ReLU's forward (clamp_min in torch 1.13) and backward. There is no name-for-name
// mapping to trainscope's ops (aten::convolution_backward is conv_bwd_data,
// conv_bwd_filter and bias_bwd at once; addmm is gemm and add_bias; Adam is a chain of
// generic elementwise aten ops, trainscope's adam_update one op), so the categories are
// where the two frameworks compare.
constexpr std::array<NamedOp, 10> kAtenOps{{
    {"addmm", KernelCategory::Gemm},
    {"mm", KernelCategory::Gemm},
    {"bmm", KernelCategory::Gemm},
    {"baddbmm", KernelCategory::Gemm},
    {"addbmm", KernelCategory::Gemm},
    {"addmv", KernelCategory::Gemm},
    {"mv", KernelCategory::Gemm},
    {"linear", KernelCategory::Gemm},
    {"clamp_min", KernelCategory::Elementwise},
    {"threshold_backward", KernelCategory::Elementwise},
}};

constexpr std::array<std::string_view, 16> kTensorCore{
    "hmma",  "wgmma",  "gmma",  "xmma",   "tensorop", "wmma", "s1688", "s16816",
    "h1688", "h16816", "i8816", "i16832", "h884",     "s884", "_tf32", "tf32_"};

}  // namespace

KernelCategory classify_kernel(std::string_view kernel_name) {
    const std::string name = lowercase(kernel_name);
    for (const NamedOp& op : kBackendOps) {
        if (name == op.name)
            return op.category;
    }
    if (constexpr std::string_view aten = "aten::"; name.rfind(aten, 0) == 0) {
        const std::string_view op_name = std::string_view(name).substr(aten.size());
        for (const NamedOp& op : kAtenOps) {
            if (op_name == op.name)
                return op.category;
        }
    }
    if (name.rfind("memcpy", 0) == 0 || name.rfind("memset", 0) == 0 ||
        contains_any(name, kMemcpyMemset)) {
        return KernelCategory::MemcpyMemset;
    }
    if (contains_any(name, kCommunication))
        return KernelCategory::Communication;
    if (contains_any(name, kOptimizer))
        return KernelCategory::Optimizer;
    if (contains_any(name, kNormalization))
        return KernelCategory::Normalization;
    if (contains_any(name, kConvolution))
        return KernelCategory::Convolution;
    if (contains_any(name, kGemm))
        return KernelCategory::Gemm;
    if (contains_any(name, kReduction))
        return KernelCategory::Reduction;
    if (contains_any(name, kElementwise))
        return KernelCategory::Elementwise;
    return KernelCategory::Other;
}

KernelCategory classify_work(ActivityKind kind, std::string_view name) {
    if (kind == ActivityKind::Memcpy || kind == ActivityKind::Memset)
        return KernelCategory::MemcpyMemset;
    if (kind == ActivityKind::Collective)
        return KernelCategory::Communication;
    return classify_kernel(name);
}

std::string_view to_string(KernelCategory category) {
    switch (category) {
        case KernelCategory::Convolution:
            return "convolution";
        case KernelCategory::Gemm:
            return "gemm";
        case KernelCategory::Elementwise:
            return "elementwise";
        case KernelCategory::Reduction:
            return "reduction";
        case KernelCategory::Normalization:
            return "normalization";
        case KernelCategory::Optimizer:
            return "optimizer";
        case KernelCategory::MemcpyMemset:
            return "memcpy/memset";
        case KernelCategory::Communication:
            return "communication";
        case KernelCategory::Other:
            break;
    }
    return "other";
}

bool uses_tensor_cores(std::string_view kernel_name) {
    const std::string name = lowercase(kernel_name);
    if (contains_any(name, kTensorCore))
        return true;
    // CUTLASS kernels name their math: a reduced-precision CUTLASS kernel is a tensor-op one.
    const bool cutlass = name.find("cutlass") != std::string::npos;
    const bool reduced = name.find("_f16") != std::string::npos ||
                         name.find("_bf16") != std::string::npos ||
                         name.find("tf32") != std::string::npos;
    return cutlass && reduced;
}

}  // namespace trainscope::profiler
