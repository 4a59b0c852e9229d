#include "workloads/backends/cuda/CudaBackendFactory.hpp"

#include <cuda_runtime_api.h>

#include "workloads/backends/cuda/CudaBackend.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {

std::unique_ptr<Backend> make_cuda_backend(const BackendOptions& options) {
    const cuda::CudaRunOptions parsed = cuda::parse_cuda_run_options(options);
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        cudaGetLastError();  // leave no error behind for the next runtime call
        throw ConfigError(std::string("backend: cuda cannot run here: ") +
                          cudaGetErrorString(status) + " (cudaGetDeviceCount, code " +
                          std::to_string(static_cast<int>(status)) + "); use backend=cpu");
    }
    if (count == 0) {
        throw ConfigError("backend: cuda cannot run here: no CUDA device; use backend=cpu");
    }
    if (parsed.device >= count) {
        throw ConfigError("device: " + std::to_string(parsed.device) + " does not exist; this " +
                          "machine has " + std::to_string(count) + " CUDA device(s), 0 to " +
                          std::to_string(count - 1));
    }
    return std::make_unique<CudaBackend>(parsed);
}

}  // namespace trainscope::workloads
