// Device discovery from the CPU side of a CUDA build: the driver is probed first, so a
// machine without one answers without loading the CUDA module (and its 200 MB of CUDA
// libraries); with a driver, the module asks the runtime.
#include <cuda_runtime_api.h>  // CUDART_VERSION only: nothing here calls the runtime

#include "workloads/backends/cuda/CudaModuleApi.hpp"
#include "workloads/devices/DeviceQuery.hpp"

namespace trainscope::workloads {

DeviceInventory query_cuda_devices() {
    if (!nvidia_driver_installed()) {
        DeviceInventory inventory;
        inventory.cuda_built = true;
        // The runtime the module is built against, which cudaRuntimeGetVersion would say.
        inventory.runtime_version = CUDART_VERSION;
        inventory.status = "no NVIDIA driver is installed (libcuda not found)";
        return inventory;
    }
    try {
        return cuda_workloads_api().query_devices();
    } catch (const CudaModuleError& error) {
        DeviceInventory inventory;
        inventory.cuda_built = true;
        inventory.status = std::string("the CUDA module cannot be loaded: ") + error.what();
        return inventory;
    }
}

}  // namespace trainscope::workloads
