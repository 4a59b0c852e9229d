#include <cuda_runtime_api.h>

#include <string>

#include "workloads/devices/DeviceQuery.hpp"

namespace trainscope::workloads {

// Queries through the runtime API; every failure becomes a status line rather than an
// exception, because "no GPU here" is an ordinary answer on a development machine.
DeviceInventory query_cuda_runtime_devices() {
    DeviceInventory inventory;
    inventory.cuda_built = true;
    cudaRuntimeGetVersion(&inventory.runtime_version);
    if (cudaDriverGetVersion(&inventory.driver_version) != cudaSuccess ||
        inventory.driver_version == 0) {
        inventory.driver_version = 0;
        inventory.status = "no NVIDIA driver is installed (libcuda not found)";
        return inventory;
    }
    int count = 0;
    const cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess) {
        inventory.status = std::string("no CUDA device: ") + cudaGetErrorString(rc);
        cudaGetLastError();  // clear the sticky-free error so later calls start clean
        return inventory;
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess)
            continue;
        CudaDeviceInfo info;
        info.ordinal = i;
        info.name = prop.name;
        info.compute_major = prop.major;
        info.compute_minor = prop.minor;
        info.sm_count = prop.multiProcessorCount;
        info.memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
        int clock = 0;
        if (cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, i) == cudaSuccess) {
            info.sm_clock_khz = clock;
        }
        if (cudaDeviceGetAttribute(&clock, cudaDevAttrMemoryClockRate, i) == cudaSuccess) {
            info.memory_clock_khz = clock;
        }
        int bus_width = 0;
        if (cudaDeviceGetAttribute(&bus_width, cudaDevAttrGlobalMemoryBusWidth, i) == cudaSuccess) {
            info.memory_bus_width_bits = bus_width;
        }
        char bus[32] = {};
        if (cudaDeviceGetPCIBusId(bus, sizeof bus, i) == cudaSuccess)
            info.pci_bus_id = bus;
        inventory.devices.push_back(std::move(info));
    }
    inventory.status = count > 0 ? std::to_string(count) + " CUDA device(s)" : "no CUDA device";
    return inventory;
}

}  // namespace trainscope::workloads
