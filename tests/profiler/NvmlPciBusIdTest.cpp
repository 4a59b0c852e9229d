#include <gtest/gtest.h>

#include "profiler/nvml/PciBusId.hpp"

namespace trainscope::profiler {
namespace {

TEST(PciBusId, ParsesCudaAndNvmlSpellingsToTheSameAddress) {
    const PciBusId expected{0, 0x3b, 0, 0};
    EXPECT_EQ(parse_pci_bus_id("0000:3b:00.0"), expected);      // CUDA, lower case
    EXPECT_EQ(parse_pci_bus_id("0000:3B:00.0"), expected);      // CUDA, upper case
    EXPECT_EQ(parse_pci_bus_id("00000000:3B:00.0"), expected);  // NVML busId
    EXPECT_EQ(parse_pci_bus_id("0:3b:0.0"), expected);          // minimal width
    EXPECT_EQ(parse_pci_bus_id("0000:3b:00"), expected);        // domain:bus:device
    EXPECT_EQ(parse_pci_bus_id("3b:00.0"), expected);           // bus:device.function
    EXPECT_EQ(parse_pci_bus_id(" 0000:3b:00.0\n"), expected);
}

TEST(PciBusId, KeepsDomainDeviceAndFunction) {
    EXPECT_EQ(parse_pci_bus_id("0001:c1:1f.7"), (PciBusId{1, 0xc1, 0x1f, 7}));
    EXPECT_EQ(parse_pci_bus_id("FFFFFFFF:ff:00.1"), (PciBusId{0xffffffffu, 0xff, 0, 1}));
}

TEST(PciBusId, RejectsWhatIsNotABusId) {
    for (const char* text :
         {"", "GPU-1234", "0000:3b", "3b:00", "0000:3b:00.0.1", "000000000:3b:00.0",
          "0000:100:00.0", "0000:3b:20.0", "0000:3b:00.8", "0000:3g:00.0", "0000::00.0",
          "0000:3b:00.", "0000:3b:00.0:1", "-1:3b:00.0"}) {
        EXPECT_FALSE(parse_pci_bus_id(text).has_value()) << text;
    }
}

TEST(PciBusId, WritesNvmlsSpelling) {
    EXPECT_EQ(to_nvml_bus_id(PciBusId{0, 0x3b, 0, 0}), "00000000:3B:00.0");
    EXPECT_EQ(to_nvml_bus_id(PciBusId{1, 0xc1, 0x1f, 7}), "00000001:C1:1F.7");
    EXPECT_EQ(to_nvml_bus_id(*parse_pci_bus_id("0000:01:00.0")), "00000000:01:00.0");
}

}  // namespace
}  // namespace trainscope::profiler
