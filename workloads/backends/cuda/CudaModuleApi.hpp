#pragma once

#include <memory>

#include "workloads/backend/Backend.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/devices/CudaModule.hpp"
#include "workloads/devices/DeviceQuery.hpp"
#include "workloads/distributed/Communicator.hpp"
#include "workloads/distributed/MpiCommunicator.hpp"

namespace trainscope::workloads {

// What the CUDA module (workloads/devices/CudaModule.hpp) offers the engine: the factories
// the CPU-side code calls where it used to call the CUDA files directly. Every object they
// return is used through its interface (Backend, Communicator), whose code is the module's.
// Includes no CUDA header.
struct CudaWorkloadsApi {
    // The CUDA runtime's devices (query_cuda_devices asks for them once a driver is found).
    DeviceInventory (*query_devices)();
    // make_cuda_backend: the registry's "cuda".
    std::unique_ptr<Backend> (*make_backend)(const BackendOptions& options);
    // The NCCL communicator over `mpi`'s ranks, on the backend's compute stream.
    std::unique_ptr<Communicator> (*make_nccl_communicator)(std::unique_ptr<MpiCommunicator> mpi,
                                                            void* compute_stream);
};

inline constexpr char kCudaWorkloadsApiSymbol[] = "trainscope_cuda_workloads_api";

// The module's table, loading the module on the first call; throws CudaModuleError.
inline const CudaWorkloadsApi& cuda_workloads_api() {
    return cuda_module_api<CudaWorkloadsApi>(kCudaWorkloadsApiSymbol);
}

}  // namespace trainscope::workloads

// The module's entry point (defined in CudaModuleEntry.cpp, found with dlsym).
extern "C" const trainscope::workloads::CudaWorkloadsApi* trainscope_cuda_workloads_api();
