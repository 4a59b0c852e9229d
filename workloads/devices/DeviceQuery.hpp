#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace trainscope::workloads {

struct CudaDeviceInfo {
    int ordinal = 0;
    std::string name;
    int compute_major = 0;
    int compute_minor = 0;
    int sm_count = 0;
    std::int64_t memory_bytes = 0;
    int sm_clock_khz = 0;
    int memory_clock_khz = 0;
    int memory_bus_width_bits = 0;
    std::string pci_bus_id;
};

// What the CUDA runtime reports on this machine. `status` explains an empty device
// list in words a user can act on ("built without CUDA", "no CUDA device",
// "no NVIDIA driver").
struct DeviceInventory {
    bool cuda_built = false;
    int driver_version = 0;   // e.g. 13000; 0 when no driver
    int runtime_version = 0;  // e.g. 13000
    std::vector<CudaDeviceInfo> devices;
    std::string status;
};

// Without a driver (no libcuda.so.1) this answers at once, without loading the CUDA
// module; otherwise the module asks the runtime (query_cuda_runtime_devices). A module that
// cannot be loaded is a status line too.
DeviceInventory query_cuda_devices();

// The runtime's answer; in the CUDA module only (DeviceQueryCuda.cpp).
DeviceInventory query_cuda_runtime_devices();

}  // namespace trainscope::workloads
