#include "workloads/backends/cuda/CudaBackend.hpp"

#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "workloads/annotation/NvtxRange.hpp"
#include "workloads/backend/BackendContract.hpp"
#include "workloads/backend/FloatTypeDispatch.hpp"
#include "workloads/backend/GatherLayout.hpp"
#include "workloads/backends/cuda/CublasGemm.hpp"
#include "workloads/backends/cuda/CudaEventStepTimer.hpp"
#include "workloads/backends/cuda/PrecisionSelection.hpp"
#include "workloads/backends/cuda/StorageTypeDispatch.hpp"
#include "workloads/backends/cuda/TensorProblems.hpp"
#include "workloads/backends/cuda/kernels/CapturedOptimizerKernels.hpp"
#include "workloads/backends/cuda/kernels/CastKernels.hpp"
#include "workloads/backends/cuda/kernels/ElementwiseKernels.hpp"
#include "workloads/backends/cuda/kernels/GatherKernels.hpp"
#include "workloads/backends/cuda/kernels/LossKernels.hpp"
#include "workloads/backends/cuda/kernels/PoolingKernels.hpp"
#include "workloads/backends/cuda/kernels/StorageMath.hpp"

namespace trainscope::workloads {
namespace {

using cuda::CudaRunOptions;
using cuda::DeviceAllocation;

// The async pool keeps freed blocks up to this many bytes across synchronizations.
constexpr std::uint64_t kAsyncPoolReleaseThresholdBytes = std::numeric_limits<std::uint64_t>::max();
// The cuBLAS workspace size the cuBLAS documentation recommends (cublasSetWorkspace):
// 32 MiB on Hopper and newer, 4 MiB before. PyTorch sizes the workspace it hands cuBLAS
// from its caching allocator the same way.
std::size_t cublas_workspace_bytes(int device) {
    int major = 0;
    TS_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    return major >= 9 ? std::size_t{32} << 20 : std::size_t{4} << 20;
}

using cuda::activation_problem;
using cuda::conv_problem;
using cuda::cudnn_type;
using cuda::master_dtype_of;
using cuda::pool_plane;
using cuda::pool_problem;
using cuda::require;

using cuda::kBackend;
using cuda::with_storage_type;

// Runs the cuDNN path of `op` unless cuDNN refused it for this dtype before. A status of
// the NOT_SUPPORTED category is recorded (the run's environment names it) and the own
// kernels run, now and for every later call of `op` on this dtype; any other failure has
// already thrown.
template <typename Cudnn, typename Own>
void cudnn_or_own(cuda::CudnnFallbacks& fallbacks, const char* op, DType dtype, const Cudnn& cudnn,
                  const Own& own) {
    if (fallbacks.use_cudnn(op, dtype)) {
        const cudnnStatus_t status = cudnn();
        if (status == CUDNN_STATUS_SUCCESS) {
            return;
        }
        fallbacks.record_not_supported(op, dtype, cudnnGetErrorString(status));
    }
    own();
}

std::int64_t spatial(const Tensor& t) {
    return t.shape().rank() == 4 ? t.shape()[2] * t.shape()[3] : 1;
}

std::unique_ptr<cuda::CountingRawAllocator> make_allocator(const CudaRunOptions& options,
                                                           cudaStream_t stream) {
    switch (options.allocation) {
        case DeviceAllocation::device:
        case DeviceAllocation::pool:  // the engine's CachingPool sits on cudaMalloc
            return std::make_unique<cuda::CudaMallocAllocator>();
        case DeviceAllocation::async:
            return std::make_unique<cuda::CudaAsyncAllocator>(options.device, stream,
                                                              kAsyncPoolReleaseThresholdBytes);
        case DeviceAllocation::managed:
            return std::make_unique<cuda::CudaManagedAllocator>(options.device, stream);
    }
    throw std::logic_error("cuda backend: unknown allocation strategy");
}

cuda::CudaStream make_stream_on(int device) {
    TS_CUDA_CHECK(cudaSetDevice(device));
    return cuda::make_stream();
}

}  // namespace

CudaBackend::CudaBackend(const CudaRunOptions& options)
    : options_(options),
      stream_(make_stream_on(options.device)),
      cudnn_(cuda::make_cudnn_handle()),
      cublas_(cuda::make_cublas_handle()),
      allocator_(make_allocator(options, stream_.get())),
      h2d_(options.host_memory, options.transfer, stream_.get()),
      convolutions_(cudnn_.get(), stream_.get(), workspace_,
                    {options.exhaustive_algorithms, options.workspace_limit_bytes}) {
    TS_CUDNN_CHECK(cudnnSetStream(cudnn_.get(), stream_.get()));
    TS_CUBLAS_CHECK(cublasSetStream(cublas_.get(), stream_.get()));
    for (cuda::DeviceScratch* scratch :
         {&workspace_, &discarded_running_stats_, &reduction_workspace_})
        scratch->count_in(&op_workspace_);
    // After cublasSetStream, which resets the workspace to cuBLAS's default.
    cublas_workspace_bytes_ = cublas_workspace_bytes(options.device);
    cublas_workspace_ = cuda::make_device_memory(cublas_workspace_bytes_);
    TS_CUBLAS_CHECK(
        cublasSetWorkspace(cublas_.get(), cublas_workspace_.get(), cublas_workspace_bytes_));
    if (options.cuda_graph) {
        // Evaluation may grow these after the capture; the graph keeps the old addresses.
        workspace_.keep_outgrown_blocks();
        discarded_running_stats_.keep_outgrown_blocks();
        reduction_workspace_.keep_outgrown_blocks();
        graph_ = std::make_unique<cuda::StepGraph>(stream_.get());
        cuda::kernels::load_captured_optimizer_kernels(stream_.get(), graph_->constants_block());
    }
    sample_device_memory();
}

CudaBackend::~CudaBackend() {
    // A capture an exception left open must end before the stream can be synchronized.
    abandon_step_capture();
    // Queued kernels may still read scratch buffers that die with this object.
    TS_CUDA_CHECK_NOEXCEPT(cudaStreamSynchronize(stream_.get()));
}

void CudaBackend::sample_device_memory() {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    TS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    peak_device_used_bytes_ =
        std::max(peak_device_used_bytes_, static_cast<std::int64_t>(total_bytes - free_bytes));
}

void CudaBackend::synchronize() {
    step_timer_.mark(stream());
    TS_CUDA_CHECK(cudaStreamSynchronize(stream()));
    step_timer_.collect();
    h2d_.collect();
    sample_device_memory();
}

StepTimer& CudaBackend::start_step_timer() {
    window_timer_.start();
    return window_timer_;
}

bool CudaBackend::emulates(Precision precision) const {
    return cuda::precision_is_emulated(precision);
}

DType CudaBackend::storage_dtype(Precision precision) const {
    return cuda::storage_dtype_for(precision);
}

void CudaBackend::do_copy_from_host(const void* host, Tensor& destination) {
    OpRange range("copy_h2d", copy_cost(destination, destination));
    h2d_.copy(host, destination.raw(), destination.bytes());
}

void CudaBackend::do_copy_to_host(const Tensor& source, void* host) {
    OpRange range("copy_d2h", copy_cost(source, source));
    TS_CUDA_CHECK(
        cudaMemcpyAsync(host, source.raw(), source.bytes(), cudaMemcpyDeviceToHost, stream()));
    TS_CUDA_CHECK(cudaStreamSynchronize(stream()));
    d2h_bytes_ += static_cast<std::int64_t>(source.bytes());
}

void CudaBackend::do_copy(const Tensor& source, Tensor& destination) {
    OpRange range("copy", copy_cost(source, destination));
    TS_CUDA_CHECK(cudaMemcpyAsync(destination.raw(), source.raw(), source.bytes(),
                                  cudaMemcpyDeviceToDevice, stream()));
}

void CudaBackend::do_gather_rows(const Tensor& source, const Tensor& indices, Tensor& destination) {
    OpRange range("gather_rows", copy_cost(destination, destination));
    const GatherLayout layout = gather_layout(source, indices, destination);
    cuda::kernels::gather_rows(stream(), layout.rows, layout.row_bytes,
                               indices.data<std::int32_t>(), source.raw(), destination.raw());
}

void CudaBackend::do_fill(Tensor& tensor, double value) {
    OpRange range("fill", fill_cost(tensor));
    if (tensor.dtype() == DType::i32) {
        cuda::kernels::fill<std::int32_t>(stream(), tensor.elements(),
                                          static_cast<std::int32_t>(value),
                                          tensor.data<std::int32_t>());
        return;
    }
    with_storage_type(tensor, "fill", [&](auto zero) {
        using T = decltype(zero);
        const T stored = cuda::math::store<T>(static_cast<cuda::math::compute_t<T>>(value));
        cuda::kernels::fill<T>(stream(), tensor.elements(), stored, tensor.data<T>());
    });
}

void CudaBackend::do_convert(const Tensor& source, Tensor& destination) {
    OpRange range("convert", copy_cost(source, destination));
    with_storage_type(source, "convert", [&](auto from_zero) {
        using From = decltype(from_zero);
        with_storage_type(destination, "convert", [&](auto to_zero) {
            using To = decltype(to_zero);
            cuda::kernels::convert<To, From>(stream(), source.elements(), source.data<From>(),
                                             destination.data<To>());
        });
    });
}

void CudaBackend::do_conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& bias, Tensor& y,
                                    const Conv2dGeometry& geometry) {
    // The bias add opens its own op range below and carries its own cost; counting it here
    // too would count its kernel's work twice (the projection counts nested ranges' kernels).
    OpRange range("conv_fwd", conv2d_forward_cost(x, w, Tensor{}, y));
    const WorkspaceScope op_workspace(op_workspace_);
    convolutions_.forward(conv_problem(x, w, y, geometry, math_), x.raw(), w.raw(), y.raw());
    if (!bias.empty()) {
        add_bias(y, bias);
    }
}

void CudaBackend::do_conv2d_backward_data(const Tensor& dy, const Tensor& w, Tensor& dx,
                                          const Conv2dGeometry& geometry) {
    OpRange range("conv_bwd_data", conv2d_backward_data_cost(dy, w, dx));
    const WorkspaceScope op_workspace(op_workspace_);
    convolutions_.backward_data(conv_problem(dx, w, dy, geometry, math_), dy.raw(), w.raw(),
                                dx.raw());
}

void CudaBackend::do_conv2d_backward_filter(const Tensor& x, const Tensor& dy, Tensor& dw,
                                            Tensor& dbias, const Conv2dGeometry& geometry) {
    // bias_backward below is an op range of its own, with its own cost (as in conv_fwd).
    OpRange range("conv_bwd_filter", conv2d_backward_filter_cost(x, dy, dw, Tensor{}));
    const WorkspaceScope op_workspace(op_workspace_);
    convolutions_.backward_filter(conv_problem(x, dw, dy, geometry, math_), x.raw(), dy.raw(),
                                  dw.raw());
    if (!dbias.empty()) {
        bias_backward(dy, dbias);
    }
}

void CudaBackend::do_gemm(bool transpose_a, bool transpose_b, double alpha, const Tensor& a,
                          const Tensor& b, double beta, Tensor& c) {
    OpRange range("gemm", gemm_cost(transpose_a, transpose_b, a, b, beta, c));
    const WorkspaceScope op_workspace(op_workspace_);
    // Counted whole: cuBLAS may use all of it and does not say how much a call took.
    op_workspace_.use(cublas_workspace_.get(), cublas_workspace_bytes_);
    const GemmDims dims = gemm_dims(transpose_a, transpose_b, a, b);
    cuda::RowMajorGemm shape;
    shape.transpose_a = transpose_a;
    shape.transpose_b = transpose_b;
    shape.m = dims.m;
    shape.k = dims.k;
    shape.n = dims.n;
    const cuda::LibraryMath math = cuda::library_math_for(a.dtype(), math_);
    if (a.dtype() == DType::f64) {
        cuda::cublas_row_major_gemm(cublas_.get(), shape, math, &alpha, a.raw(), b.raw(), &beta,
                                    c.raw());
    } else {
        const float alpha_f = static_cast<float>(alpha);
        const float beta_f = static_cast<float>(beta);
        cuda::cublas_row_major_gemm(cublas_.get(), shape, math, &alpha_f, a.raw(), b.raw(), &beta_f,
                                    c.raw());
    }
}

void CudaBackend::do_add_bias(Tensor& y, const Tensor& bias) {
    OpRange range("add_bias", add_bias_cost(y, bias));
    with_storage_type(y, "add_bias", [&](auto zero) {
        using T = decltype(zero);
        cuda::kernels::add_bias<T>(stream(), y.shape()[0], y.shape()[1], spatial(y), y.data<T>(),
                                   bias.data<T>());
    });
}

void CudaBackend::do_bias_backward(const Tensor& dy, Tensor& dbias) {
    OpRange range("bias_bwd", bias_backward_cost(dy, dbias));
    const WorkspaceScope op_workspace(op_workspace_);
    with_storage_type(dy, "bias_backward", [&](auto zero) {
        using T = decltype(zero);
        const std::int64_t outer = dy.shape()[0];
        const std::int64_t channels = dy.shape()[1];
        void* workspace = reduction_workspace_.reserve(
            cuda::kernels::bias_backward_workspace_bytes<T>(outer, channels, spatial(dy)),
            stream());
        cuda::kernels::bias_backward<T>(stream(), outer, channels, spatial(dy), dy.data<T>(),
                                        dbias.data<T>(), workspace);
    });
}

void CudaBackend::do_relu_forward(const Tensor& x, Tensor& y) {
    OpRange range("relu_fwd", relu_forward_cost(x, y));
    const cuda::ActivationProblem problem = activation_problem(x, y, "relu_forward");
    cudnn_or_own(
        activation_fallbacks_, "relu_forward", x.dtype(),
        [&] {
            return cuda::cudnn_relu_forward(cudnn_.get(), pooling_descriptors_, problem, x.raw(),
                                            y.raw());
        },
        [&] {
            with_storage_type(x, "relu_forward", [&](auto zero) {
                using T = decltype(zero);
                cuda::kernels::relu_forward<T>(stream(), x.elements(), x.data<T>(), y.data<T>());
            });
        });
}

void CudaBackend::do_relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx) {
    OpRange range("relu_bwd", relu_backward_cost(y, dy, dx));
    const cuda::ActivationProblem problem = activation_problem(y, dy, "relu_backward");
    cudnn_or_own(
        activation_fallbacks_, "relu_backward", y.dtype(),
        [&] {
            return cuda::cudnn_relu_backward(cudnn_.get(), pooling_descriptors_, problem, y.raw(),
                                             dy.raw(), dx.raw());
        },
        [&] {
            with_storage_type(y, "relu_backward", [&](auto zero) {
                using T = decltype(zero);
                cuda::kernels::relu_backward<T>(stream(), y.elements(), y.data<T>(), dy.data<T>(),
                                                dx.data<T>());
            });
        });
}

void CudaBackend::do_max_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) {
    OpRange range("max_pool_fwd", max_pool_forward_cost(x, y, geometry));
    const cuda::PoolProblem problem = pool_problem(x, y, geometry, cuda::PoolKind::max);
    cudnn_or_own(
        pooling_fallbacks_, "max_pool_forward", x.dtype(),
        [&] {
            return cuda::cudnn_pooling_forward(cudnn_.get(), pooling_descriptors_, problem, x.raw(),
                                               y.raw());
        },
        [&] {
            const cuda::math::PoolPlane plane = pool_plane(x, y, geometry);
            with_storage_type(x, "max_pool_forward", [&](auto zero) {
                using T = decltype(zero);
                cuda::kernels::max_pool_forward<T>(stream(), x.shape()[0] * x.shape()[1], plane,
                                                   x.data<T>(), y.data<T>());
            });
        });
}

void CudaBackend::do_max_pool_backward(const Tensor& x, const Tensor& y, const Tensor& dy,
                                       Tensor& dx, const Pool2dGeometry& geometry) {
    OpRange range("max_pool_bwd", max_pool_backward_cost(x, y, dy, dx, geometry));
    const cuda::PoolProblem problem = pool_problem(x, dy, geometry, cuda::PoolKind::max);
    cudnn_or_own(
        pooling_fallbacks_, "max_pool_backward", x.dtype(),
        [&] {
            return cuda::cudnn_pooling_backward(cudnn_.get(), pooling_descriptors_, problem,
                                                y.raw(), dy.raw(), x.raw(), dx.raw());
        },
        [&] {
            const cuda::math::PoolPlane plane = pool_plane(x, dy, geometry);
            with_storage_type(x, "max_pool_backward", [&](auto zero) {
                using T = decltype(zero);
                cuda::kernels::max_pool_backward<T>(stream(), x.shape()[0] * x.shape()[1], plane,
                                                    x.data<T>(), dy.data<T>(), dx.data<T>());
            });
        });
}

void CudaBackend::do_avg_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) {
    OpRange range("avg_pool_fwd", avg_pool_forward_cost(x, y, geometry));
    const cuda::PoolProblem problem = pool_problem(x, y, geometry, cuda::PoolKind::average);
    cudnn_or_own(
        pooling_fallbacks_, "avg_pool_forward", x.dtype(),
        [&] {
            return cuda::cudnn_pooling_forward(cudnn_.get(), pooling_descriptors_, problem, x.raw(),
                                               y.raw());
        },
        [&] {
            const cuda::math::PoolPlane plane = pool_plane(x, y, geometry);
            with_storage_type(x, "avg_pool_forward", [&](auto zero) {
                using T = decltype(zero);
                cuda::kernels::avg_pool_forward<T>(stream(), x.shape()[0] * x.shape()[1], plane,
                                                   x.data<T>(), y.data<T>());
            });
        });
}

void CudaBackend::do_avg_pool_backward(const Tensor& dy, Tensor& dx,
                                       const Pool2dGeometry& geometry) {
    OpRange range("avg_pool_bwd", avg_pool_backward_cost(dy, dx, geometry));
    const cuda::PoolProblem problem = pool_problem(dx, dy, geometry, cuda::PoolKind::average);
    cudnn_or_own(
        pooling_fallbacks_, "avg_pool_backward", dy.dtype(),
        [&] {
            // Average pooling's gradient needs neither x nor y; the Backend hands neither,
            // so same-shaped tensors stand in for them (dy for y, dx for x).
            return cuda::cudnn_pooling_backward(cudnn_.get(), pooling_descriptors_, problem,
                                                dy.raw(), dy.raw(), dx.raw(), dx.raw());
        },
        [&] {
            const cuda::math::PoolPlane plane = pool_plane(dx, dy, geometry);
            with_storage_type(dy, "avg_pool_backward", [&](auto zero) {
                using T = decltype(zero);
                cuda::kernels::avg_pool_backward<T>(stream(), dx.shape()[0] * dx.shape()[1], plane,
                                                    dy.data<T>(), dx.data<T>());
            });
        });
}

void CudaBackend::do_global_avg_pool_forward(const Tensor& x, Tensor& y) {
    OpRange range("global_avg_pool_fwd", global_avg_pool_forward_cost(x, y));
    with_storage_type(x, "global_avg_pool_forward", [&](auto zero) {
        using T = decltype(zero);
        cuda::kernels::global_avg_pool_forward<T>(stream(), x.shape()[0] * x.shape()[1], spatial(x),
                                                  x.data<T>(), y.data<T>());
    });
}

void CudaBackend::do_global_avg_pool_backward(const Tensor& dy, Tensor& dx) {
    OpRange range("global_avg_pool_bwd", global_avg_pool_backward_cost(dy, dx));
    with_storage_type(dy, "global_avg_pool_backward", [&](auto zero) {
        using T = decltype(zero);
        cuda::kernels::global_avg_pool_backward<T>(stream(), dx.shape()[0] * dx.shape()[1],
                                                   spatial(dx), dy.data<T>(), dx.data<T>());
    });
}

void CudaBackend::do_add(const Tensor& a, const Tensor& b, Tensor& y) {
    OpRange range("add", add_cost(a, b, y));
    with_storage_type(a, "add", [&](auto zero) {
        using T = decltype(zero);
        cuda::kernels::add<T>(stream(), a.elements(), a.data<T>(), b.data<T>(), y.data<T>());
    });
}

void CudaBackend::launch_cross_entropy(const Tensor& logits, const Tensor& labels,
                                       double loss_scale, Tensor& dlogits,
                                       cuda::math::CrossEntropyRow* rows_out) {
    const std::int64_t rows = logits.shape()[0];
    const std::int64_t classes = logits.shape().inner_elements();
    with_storage_type(logits, "softmax_cross_entropy", [&](auto zero) {
        using T = decltype(zero);
        cuda::kernels::softmax_cross_entropy<T>(
            stream(), rows, classes, logits.data<T>(), labels.data<std::int32_t>(),
            loss_scale / static_cast<double>(rows), dlogits.empty() ? nullptr : dlogits.data<T>(),
            rows_out);
    });
}

void CudaBackend::do_softmax_cross_entropy_deferred(const Tensor& logits, const Tensor& labels,
                                                    double loss_scale, Tensor& dlogits) {
    OpRange range("softmax_cross_entropy", softmax_cross_entropy_cost(logits, labels, dlogits));
    launch_cross_entropy(logits, labels, loss_scale, dlogits,
                         deferred_loss_.queue(logits.shape()[0], stream()));
}

CrossEntropyTotals CudaBackend::take_loss_totals() {
    return deferred_loss_.take(stream());
}

cuda::StepGraph& CudaBackend::step_graph() {
    require(graph_ != nullptr, "step capture", "the backend was made without cuda_graph");
    return *graph_;
}

void CudaBackend::begin_step_capture() {
    require(deferred_loss_.queued().empty(), "begin_step_capture",
            "the previous step's loss totals were not taken");
    // A new capture replaces the old graph (fp16's loss scale changed); the engine
    // synchronizes after every step, so no launch of it is still running.
    step_graph().begin_capture();
}

void CudaBackend::end_step_capture() {
    captured_loss_calls_ = deferred_loss_.queued();
    step_graph().end_capture_and_launch();
}

void CudaBackend::replay_step() {
    require(deferred_loss_.queued().empty(), "replay_step",
            "the previous step's loss totals were not taken");
    deferred_loss_.requeue(captured_loss_calls_);
    step_graph().replay();
}

void CudaBackend::abandon_step_capture() noexcept {
    if (graph_) {
        graph_->abandon_capture();
    }
}

void CudaBackend::do_softmax_cross_entropy(const Tensor& logits, const Tensor& labels,
                                           double loss_scale, Tensor& dlogits,
                                           CrossEntropyTotals& totals) {
    OpRange range("softmax_cross_entropy", softmax_cross_entropy_cost(logits, labels, dlogits));
    const std::int64_t rows = logits.shape()[0];
    auto* rows_out = static_cast<cuda::math::CrossEntropyRow*>(loss_rows_.reserve(
        static_cast<std::size_t>(rows) * sizeof(cuda::math::CrossEntropyRow), stream()));
    launch_cross_entropy(logits, labels, loss_scale, dlogits, rows_out);
    std::vector<cuda::math::CrossEntropyRow> host_rows(static_cast<std::size_t>(rows));
    TS_CUDA_CHECK(cudaMemcpyAsync(host_rows.data(), rows_out,
                                  host_rows.size() * sizeof(cuda::math::CrossEntropyRow),
                                  cudaMemcpyDeviceToHost, stream()));
    d2h_bytes_ += static_cast<std::int64_t>(host_rows.size() * sizeof(cuda::math::CrossEntropyRow));
    TS_CUDA_CHECK(cudaStreamSynchronize(stream()));
    for (const cuda::math::CrossEntropyRow& row : host_rows) {
        totals.loss_sum += row.loss;
        totals.correct += row.correct;
    }
    totals.count += rows;
}

}  // namespace trainscope::workloads
