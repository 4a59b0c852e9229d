#pragma once

#include <memory>
#include <vector>

#include "workloads/backend/Backend.hpp"
#include "workloads/backends/cuda/CublasResources.hpp"
#include "workloads/backends/cuda/CudaEventStepTimer.hpp"
#include "workloads/backends/cuda/CudaRawAllocators.hpp"
#include "workloads/backends/cuda/CudaResources.hpp"
#include "workloads/backends/cuda/CudaRunOptions.hpp"
#include "workloads/backends/cuda/CudnnFallbacks.hpp"
#include "workloads/backends/cuda/CudnnLegacyAdapter.hpp"
#include "workloads/backends/cuda/CudnnLegacyPooling.hpp"
#include "workloads/backends/cuda/CudnnResources.hpp"
#include "workloads/backends/cuda/DeferredLossRows.hpp"
#include "workloads/backends/cuda/HostToDeviceCopier.hpp"
#include "workloads/backends/cuda/StepGraph.hpp"
#include "workloads/backends/cuda/StreamIntervalTimer.hpp"
#include "workloads/backends/cuda/kernels/BatchNormKernels.hpp"

namespace trainscope::workloads {

// The CUDA backend: cuDNN convolutions, batch norm (bf16 batch norm on own kernels, as
// in PyTorch), max/average pooling and ReLU (own kernels where cuDNN refuses a dtype),
// cuBLAS GEMMs, this backend's own kernels for the rest, all queued on one
// compute stream of the chosen device. fp32/tf32 tensors are f32 and fp64 ones f64;
// fp16/bf16 runs store activations, gradients and weight copies in f16/bf16
// (storage_dtype) next to fp32 masters, with cuDNN and cuBLAS on tensor cores
// accumulating in fp32 (see docs/cuda-backend.md).
class CudaBackend final : public Backend {
  public:
    explicit CudaBackend(const cuda::CudaRunOptions& options);
    ~CudaBackend() override;
    CudaBackend(const CudaBackend&) = delete;
    CudaBackend& operator=(const CudaBackend&) = delete;

    std::string name() const override { return "cuda"; }
    RawAllocator& raw_allocator() override { return *allocator_; }
    std::map<std::string, std::string> environment() const override;
    void synchronize() override;
    void set_math_mode(MathMode mode) override { math_ = mode; }
    void set_workspace_ledger(MemoryLedger* ledger) override { op_workspace_.set_ledger(ledger); }
    StepTimer& start_step_timer() override;
    bool emulates(Precision precision) const override;
    DType storage_dtype(Precision precision) const override;
    void* native_stream() override { return stream_.get(); }
    CrossEntropyTotals take_loss_totals() override;
    void begin_step_capture() override;
    void end_step_capture() override;
    void replay_step() override;
    void abandon_step_capture() noexcept override;

  private:
    // The Backend hooks: Backend checked the contract; these check what is this backend's
    // own (the dtypes it stores, the libraries' limits).
    void do_copy_from_host(const void* host, Tensor& destination) override;
    void do_copy_to_host(const Tensor& source, void* host) override;
    void do_copy(const Tensor& source, Tensor& destination) override;
    void do_fill(Tensor& tensor, double value) override;
    // Between any two of f32, f64, f16, bf16 (round to nearest even).
    void do_convert(const Tensor& source, Tensor& destination) override;
    void do_gather_rows(const Tensor& source, const Tensor& indices, Tensor& destination) override;

    void do_conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& bias, Tensor& y,
                           const Conv2dGeometry& geometry) override;
    void do_conv2d_backward_data(const Tensor& dy, const Tensor& w, Tensor& dx,
                                 const Conv2dGeometry& geometry) override;
    void do_conv2d_backward_filter(const Tensor& x, const Tensor& dy, Tensor& dw, Tensor& dbias,
                                   const Conv2dGeometry& geometry) override;
    void do_gemm(bool transpose_a, bool transpose_b, double alpha, const Tensor& a, const Tensor& b,
                 double beta, Tensor& c) override;
    void do_add_bias(Tensor& y, const Tensor& bias) override;
    void do_bias_backward(const Tensor& dy, Tensor& dbias) override;
    void do_relu_forward(const Tensor& x, Tensor& y) override;
    void do_relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx) override;
    void do_max_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) override;
    void do_max_pool_backward(const Tensor& x, const Tensor& y, const Tensor& dy, Tensor& dx,
                              const Pool2dGeometry& geometry) override;
    void do_avg_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) override;
    void do_avg_pool_backward(const Tensor& dy, Tensor& dx,
                              const Pool2dGeometry& geometry) override;
    void do_global_avg_pool_forward(const Tensor& x, Tensor& y) override;
    void do_global_avg_pool_backward(const Tensor& dy, Tensor& dx) override;
    void do_batch_norm_forward_training(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                        Tensor& y, Tensor& running_mean, Tensor& running_var,
                                        Tensor& saved_mean, Tensor& saved_inv_std,
                                        const BatchNormSettings& settings,
                                        bool update_running) override;
    void do_batch_norm_forward_inference(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                         const Tensor& running_mean, const Tensor& running_var,
                                         Tensor& y, const BatchNormSettings& settings) override;
    void do_batch_norm_backward(const Tensor& x, const Tensor& dy, const Tensor& gamma,
                                const Tensor& saved_mean, const Tensor& saved_inv_std, Tensor& dx,
                                Tensor& dgamma, Tensor& dbeta,
                                const BatchNormSettings& settings) override;
    void do_add(const Tensor& a, const Tensor& b, Tensor& y) override;
    void do_softmax_cross_entropy(const Tensor& logits, const Tensor& labels, double loss_scale,
                                  Tensor& dlogits, CrossEntropyTotals& totals) override;
    void do_softmax_cross_entropy_deferred(const Tensor& logits, const Tensor& labels,
                                           double loss_scale, Tensor& dlogits) override;
    void do_sgd_update(Tensor& parameter, const Tensor& gradient, Tensor& velocity,
                       const SgdSettings& settings, double grad_factor,
                       const Tensor& skip_if_overflow) override;
    void do_adam_update(Tensor& parameter, const Tensor& gradient, Tensor& first_moment,
                        Tensor& second_moment, const AdamSettings& settings, double grad_factor,
                        const Tensor& skip_if_overflow) override;
    void do_round_storage(Tensor& tensor, StorageRounding rounding) override;
    void do_flag_non_finite(const Tensor& tensor, Tensor& overflow) override;

  private:
    cudaStream_t stream() const { return stream_.get(); }
    void sample_device_memory();
    void launch_cross_entropy(const Tensor& logits, const Tensor& labels, double loss_scale,
                              Tensor& dlogits, cuda::math::CrossEntropyRow* rows_out);
    cuda::StepGraph& step_graph();
    void* batch_norm_workspace(const cuda::kernels::BatchNormShape& shape);

    cuda::CudaRunOptions options_;
    cuda::CudaStream stream_;
    cuda::CudnnHandle cudnn_;
    // cuBLAS's workspace, ours rather than one cuBLAS allocates itself: counted as the
    // workspace class while a GEMM runs, and with cuda_graph=true at one address for the
    // captured step (cuBLAS must not allocate inside a capture). Declared before the
    // handle so that it outlives the handle that points at it.
    std::size_t cublas_workspace_bytes_ = 0;
    cuda::DeviceMemory cublas_workspace_;
    cuda::CublasHandle cublas_;
    // cuDNN's, cuBLAS's and the own reductions' workspaces while an op holds them: the
    // workspace class.
    WorkspaceUse op_workspace_;
    cuda::DeviceScratch workspace_;
    cuda::DeviceScratch loss_rows_;
    cuda::DeviceScratch discarded_running_stats_;
    // Partial sums of the own per-channel reductions (bias gradient, bf16 batch norm):
    // one buffer for all, as the calls queue on one stream.
    cuda::DeviceScratch reduction_workspace_;
    std::unique_ptr<cuda::CountingRawAllocator> allocator_;
    cuda::HostToDeviceCopier h2d_;
    cuda::CudnnConvolutions convolutions_;
    // Pooling and ReLU run on cuDNN unless it refused an (op, dtype) once.
    cuda::CudnnFallbacks pooling_fallbacks_;
    cuda::CudnnFallbacks activation_fallbacks_;
    // cuDNN descriptors per problem, made once (no descriptor built inside a step).
    cuda::CudnnPoolingDescriptors pooling_descriptors_;
    cuda::BatchNormDescriptors batch_norm_descriptors_;
    cuda::StreamIntervalTimer step_timer_;
    cuda::CudaEventStepTimer window_timer_{stream_.get()};
    cuda::DeferredLossRows deferred_loss_;
    // cuda_graph=true only: the captured step, and the deferred loss calls each replay
    // writes again.
    std::unique_ptr<cuda::StepGraph> graph_;
    std::vector<cuda::DeferredLossRows::Call> captured_loss_calls_;
    MathMode math_ = MathMode::native;
    std::int64_t d2h_bytes_ = 0;
    std::int64_t peak_device_used_bytes_ = 0;
};

}  // namespace trainscope::workloads
