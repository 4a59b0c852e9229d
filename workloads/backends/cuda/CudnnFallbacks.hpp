#pragma once

#include <map>
#include <string>
#include <utility>

#include "workloads/tensor/DType.hpp"

// Which path runs an op family (pooling, activation) on this backend: cuDNN for every
// (op, storage dtype) until cuDNN answers a status of its NOT_SUPPORTED category once, then
// this backend's own kernels for that op and dtype for the rest of the run (decided once,
// not an exception per call). Pure, so the CPU tests check the rule and its description.
namespace trainscope::workloads::cuda {

class CudnnFallbacks {
  public:
    // False once cuDNN refused this op for this dtype.
    bool use_cudnn(const std::string& op, DType dtype) const;
    // cuDNN answered `status_name` (a NOT_SUPPORTED status): own kernels from now on.
    void record_not_supported(const std::string& op, DType dtype, const std::string& status_name);

    // For the run's environment: "cudnn" while nothing fell back, else e.g.
    // "cudnn; own kernels (cuDNN: CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE for bf16
    // max_pool_forward)".
    std::string describe() const;

  private:
    // (op, dtype) -> the status cuDNN refused it with.
    std::map<std::pair<std::string, DType>, std::string> own_kernels_;
};

}  // namespace trainscope::workloads::cuda
