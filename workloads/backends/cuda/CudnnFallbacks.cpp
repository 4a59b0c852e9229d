#include "workloads/backends/cuda/CudnnFallbacks.hpp"

namespace trainscope::workloads::cuda {

bool CudnnFallbacks::use_cudnn(const std::string& op, DType dtype) const {
    return own_kernels_.find({op, dtype}) == own_kernels_.end();
}

void CudnnFallbacks::record_not_supported(const std::string& op, DType dtype,
                                          const std::string& status_name) {
    own_kernels_.emplace(std::make_pair(op, dtype), status_name);
}

std::string CudnnFallbacks::describe() const {
    if (own_kernels_.empty()) {
        return "cudnn";
    }
    std::string text = "cudnn; own kernels (cuDNN: ";
    bool first = true;
    for (const auto& [key, status] : own_kernels_) {
        text += (first ? "" : ", ") + status + " for " + dtype_name(key.second) + " " + key.first;
        first = false;
    }
    return text + ")";
}

}  // namespace trainscope::workloads::cuda
