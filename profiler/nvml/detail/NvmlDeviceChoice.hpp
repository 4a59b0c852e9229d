#pragma once

#include <string>
#include <string_view>

#include "profiler/nvml/detail/NvmlLibrary.hpp"

namespace trainscope::profiler::detail {

// The NVML device that is the CUDA device with this PCI bus id, or why there is none.
// NVML's index order need not be CUDA's, so the device is looked up by bus id
// (nvmlDeviceGetHandleByPciBusId_v2), never by index.
struct NvmlDeviceChoice {
    NvmlDevice device = nullptr;  // null when not found
    std::string nvml_bus_id;      // the id NVML was asked for; empty when unparsable
    std::string status;           // for the run's metadata (`nvml_device`)
};

NvmlDeviceChoice choose_nvml_device(const NvmlFunctions& functions,
                                    std::string_view cuda_pci_bus_id);

// "not found for PCI bus id 0000:01:00.0 (asked NVML for 00000000:01:00.0): Not Found
// (NVML code 6)"; `nvml_bus_id` empty when the text was not a bus id at all.
std::string nvml_device_not_found(std::string_view cuda_pci_bus_id, std::string_view nvml_bus_id,
                                  std::string_view reason);

}  // namespace trainscope::profiler::detail
