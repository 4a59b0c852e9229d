#include "workloads/distributed/CommunicatorFactory.hpp"

#include <stdexcept>

#if defined(TRAINSCOPE_HAS_CUDA)
#include "workloads/distributed/NcclCommunicator.hpp"
#endif

namespace trainscope::workloads {

std::unique_ptr<Communicator> make_gradient_communicator(std::unique_ptr<MpiCommunicator> mpi,
                                                         Backend& backend) {
    void* stream = backend.native_stream();
    if (stream == nullptr) {
        return mpi;
    }
#if defined(TRAINSCOPE_HAS_CUDA)
    return std::make_unique<NcclCommunicator>(std::move(mpi), stream);
#else
    throw std::logic_error("backend " + backend.name() +
                           " queues on a stream, but this build has no NCCL");
#endif
}

}  // namespace trainscope::workloads
