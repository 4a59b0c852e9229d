#include "workloads/distributed/CommunicatorFactory.hpp"

#include <stdexcept>

#if defined(TRAINSCOPE_HAS_CUDA)
#include "workloads/backends/cuda/CudaModuleApi.hpp"
#endif

namespace trainscope::workloads {

std::unique_ptr<Communicator> make_gradient_communicator(std::unique_ptr<MpiCommunicator> mpi,
                                                         Backend& backend) {
    void* stream = backend.native_stream();
    if (stream == nullptr) {
        return mpi;
    }
#if defined(TRAINSCOPE_HAS_CUDA)
    // The backend that queues on a stream is the CUDA module's, so the module is loaded.
    return cuda_workloads_api().make_nccl_communicator(std::move(mpi), stream);
#else
    throw std::logic_error("backend " + backend.name() +
                           " queues on a stream, but this build has no NCCL");
#endif
}

}  // namespace trainscope::workloads
