// The CUDA module's workloads entry point: the table of factories the CPU-side code calls
// through (CudaModuleApi.hpp). Compiled into libtrainscope_cuda.so only.
#include <memory>
#include <utility>

#include "workloads/backends/cuda/CudaBackendFactory.hpp"
#include "workloads/backends/cuda/CudaModuleApi.hpp"
#include "workloads/distributed/NcclCommunicator.hpp"

namespace trainscope::workloads {
namespace {

std::unique_ptr<Communicator> make_nccl_communicator(std::unique_ptr<MpiCommunicator> mpi,
                                                     void* compute_stream) {
    return std::make_unique<NcclCommunicator>(std::move(mpi), compute_stream);
}

constexpr CudaWorkloadsApi kApi{&query_cuda_runtime_devices, &make_cuda_backend,
                                &make_nccl_communicator};

}  // namespace
}  // namespace trainscope::workloads

extern "C" const trainscope::workloads::CudaWorkloadsApi* trainscope_cuda_workloads_api() {
    return &trainscope::workloads::kApi;
}
