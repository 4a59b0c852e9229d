#include "profiler/nvml/detail/NvmlDeviceChoice.hpp"

#include "profiler/nvml/NvmlError.hpp"
#include "profiler/nvml/PciBusId.hpp"

namespace trainscope::profiler::detail {

std::string nvml_device_not_found(std::string_view cuda_pci_bus_id, std::string_view nvml_bus_id,
                                  std::string_view reason) {
    std::string text = "not found for PCI bus id '" + std::string(cuda_pci_bus_id) + "'";
    if (!nvml_bus_id.empty())
        text += " (asked NVML for " + std::string(nvml_bus_id) + ")";
    text += ": " + std::string(reason) + "; no GPU telemetry recorded";
    return text;
}

NvmlDeviceChoice choose_nvml_device(const NvmlFunctions& functions,
                                    std::string_view cuda_pci_bus_id) {
    NvmlDeviceChoice choice;
    const std::optional<PciBusId> id = parse_pci_bus_id(cuda_pci_bus_id);
    if (!id) {
        choice.status = nvml_device_not_found(cuda_pci_bus_id, "",
                                              "not a domain:bus:device.function PCI bus id");
        return choice;
    }
    choice.nvml_bus_id = to_nvml_bus_id(*id);
    NvmlDevice device = nullptr;
    try {
        TS_NVML_CHECK(functions.handle_by_pci_bus_id(choice.nvml_bus_id.c_str(), &device));
    } catch (const NvmlError& error) {
        choice.status =
            nvml_device_not_found(cuda_pci_bus_id, choice.nvml_bus_id, error.nvml_text());
        return choice;
    }
    if (device == nullptr) {
        choice.status = nvml_device_not_found(cuda_pci_bus_id, choice.nvml_bus_id,
                                              "NVML returned success and no device");
        return choice;
    }
    choice.device = device;
    choice.status = "PCI bus id " + choice.nvml_bus_id;
    return choice;
}

}  // namespace trainscope::profiler::detail
