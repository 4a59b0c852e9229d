#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trainscope::profiler {

// A PCI address: how CUDA and NVML can agree on a device. NVML's index need not match
// the CUDA ordinal (CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER), so the harness passes the
// bus id that cudaDeviceGetPCIBusId wrote and NVML looks the device up by it.
struct PciBusId {
    std::uint32_t domain = 0;    // 0 to 0xffffffff
    std::uint32_t bus = 0;       // 0 to 0xff
    std::uint32_t device = 0;    // 0 to 0x1f
    std::uint32_t function = 0;  // 0 to 7

    friend bool operator==(const PciBusId&, const PciBusId&) = default;
};

// Parses the forms CUDA and NVML document, every number hexadecimal in either case:
// "domain:bus:device.function" (CUDA writes "0000:01:00.0", NVML's busId
// "00000000:01:00.0"), "domain:bus:device" and "bus:device.function" (domain 0, function
// 0 where absent). Surrounding blanks are ignored; anything else, or a field out of its
// range, is nullopt.
std::optional<PciBusId> parse_pci_bus_id(std::string_view text);

// NVML's own spelling, as nvmlPciInfo_t.busId and nvidia-smi print it:
// 8 hex digits of domain, 2 of bus, 2 of device, 1 of function, upper case.
std::string to_nvml_bus_id(const PciBusId& id);

}  // namespace trainscope::profiler
