#include <gtest/gtest.h>

#include <string>

#include "profiler/nvml/NvmlError.hpp"
#include "profiler/nvml/detail/NvmlDeviceChoice.hpp"

namespace trainscope::profiler::detail {
namespace {

// A fake NVML function table: one device, at NVML's spelling of bus 0x3B.
std::string g_asked;
NvmlDeviceOpaque* const kDevice = reinterpret_cast<NvmlDeviceOpaque*>(0x1000);

NvmlReturn fake_by_bus_id(const char* bus_id, NvmlDevice* device) {
    g_asked = bus_id;
    if (g_asked == "00000000:3B:00.0") {
        *device = kDevice;
        return kNvmlSuccess;
    }
    return 6;  // NVML_ERROR_NOT_FOUND
}
const char* fake_error_string(NvmlReturn status) {
    return status == 6 ? "Not Found" : "Unknown Error";
}

// Names its words while it lives, as NvmlLibrary does between open and close.
struct FakeNvml {
    NvmlFunctions table{};
    FakeNvml() {
        table.handle_by_pci_bus_id = fake_by_bus_id;
        table.error_string = fake_error_string;
        use_nvml_error_string(fake_error_string);
    }
    ~FakeNvml() { forget_nvml_error_string(fake_error_string); }
    FakeNvml(const FakeNvml&) = delete;
    FakeNvml& operator=(const FakeNvml&) = delete;
};

TEST(NvmlDeviceChoice, FindsTheDeviceByTheNormalisedCudaBusId) {
    const NvmlDeviceChoice choice = choose_nvml_device(FakeNvml().table, "0000:3b:00.0");
    EXPECT_EQ(g_asked, "00000000:3B:00.0");
    EXPECT_EQ(choice.device, kDevice);
    EXPECT_EQ(choice.nvml_bus_id, "00000000:3B:00.0");
    EXPECT_EQ(choice.status, "PCI bus id 00000000:3B:00.0");
}

TEST(NvmlDeviceChoice, AnUnknownBusIdIsNotFoundWithNvmlsReason) {
    g_asked.clear();
    const NvmlDeviceChoice choice = choose_nvml_device(FakeNvml().table, "0000:01:00.0");
    EXPECT_EQ(g_asked, "00000000:01:00.0");
    EXPECT_EQ(choice.device, nullptr);
    EXPECT_EQ(choice.status,
              "not found for PCI bus id '0000:01:00.0' (asked NVML for 00000000:01:00.0): "
              "Not Found (NVML code 6); no GPU telemetry recorded");
}

TEST(NvmlDeviceChoice, TextThatIsNotABusIdNeverReachesNvml) {
    g_asked = "untouched";
    const NvmlDeviceChoice choice = choose_nvml_device(FakeNvml().table, "GPU-5f1c");
    EXPECT_EQ(g_asked, "untouched");
    EXPECT_EQ(choice.device, nullptr);
    EXPECT_TRUE(choice.nvml_bus_id.empty());
    EXPECT_EQ(choice.status,
              "not found for PCI bus id 'GPU-5f1c': not a domain:bus:device.function PCI bus "
              "id; no GPU telemetry recorded");
}

}  // namespace
}  // namespace trainscope::profiler::detail
