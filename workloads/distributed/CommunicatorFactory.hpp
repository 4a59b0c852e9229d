#pragma once

#include <memory>

#include "workloads/backend/Backend.hpp"
#include "workloads/distributed/Communicator.hpp"
#include "workloads/distributed/MpiCommunicator.hpp"

namespace trainscope::workloads {

// The gradient communicator for `backend`: NCCL on a backend with a native (CUDA) stream,
// bootstrapped over `mpi`, which it then owns; `mpi` itself on the CPU.
std::unique_ptr<Communicator> make_gradient_communicator(std::unique_ptr<MpiCommunicator> mpi,
                                                         Backend& backend);

}  // namespace trainscope::workloads
