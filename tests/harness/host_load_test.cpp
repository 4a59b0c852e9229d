// How busy the rest of the machine was while a cell trained: /proc/stat parsing, the
// shares of other processes and of the hypervisor, and when the run is flagged.
#include <gtest/gtest.h>

#include "harness/capture/HostLoadMonitor.hpp"
#include "reports/quality/MeasurementWarnings.hpp"

namespace trainscope::harness {
namespace {

TEST(HostLoad, ParsesTheAggregateCpuLine) {
    const auto ticks = parse_proc_stat(
        "cpu  100 5 40 800 20 3 2 30 7 0\n"
        "cpu0 50 2 20 400 10 1 1 15 3 0\n"
        "intr 12345\n");
    ASSERT_TRUE(ticks);
    EXPECT_EQ(ticks->busy, 100u + 5 + 40 + 3 + 2);  // guest (7) is already inside user
    EXPECT_EQ(ticks->steal, 30u);
    EXPECT_EQ(ticks->total, 150u + 800 + 20 + 30);
}

TEST(HostLoad, RejectsTextWithoutACompleteAggregateLine) {
    EXPECT_FALSE(parse_proc_stat(""));
    EXPECT_FALSE(parse_proc_stat("cpu0 1 2 3 4 5 6 7 8\n"));
    EXPECT_FALSE(parse_proc_stat("cpu  1 2 3 4 5\n"));
    EXPECT_FALSE(parse_proc_stat("cpu  1 2 x 4 5 6 7 8\n"));
}

TEST(HostLoad, SharesExcludeTheCellsOwnTime) {
    const MachineCpuTicks start{1000, 10, 5000};
    // 400 ticks on 2 cores elapsed: 300 busy, of which the cell used 240; 20 stolen.
    const MachineCpuTicks end{1300, 30, 5400};
    const HostLoad load = host_load_between(start, end, 240.0);
    EXPECT_DOUBLE_EQ(load.other_cpu_pct, 15.0);
    EXPECT_DOUBLE_EQ(load.steal_pct, 5.0);
    // Tick rounding can make the cell's own time exceed the machine's busy ticks.
    EXPECT_DOUBLE_EQ(host_load_between(start, end, 310.0).other_cpu_pct, 0.0);
    // No time elapsed: nothing to say.
    EXPECT_DOUBLE_EQ(host_load_between(start, start, 0.0).other_cpu_pct, 0.0);
}

TEST(HostLoad, WarnsOnlyAboveTheThresholds) {
    EXPECT_EQ(busy_host_warning({reports::kBusyHostOtherCpuPct, reports::kBusyHostStealPct}), "");
    const std::string other = busy_host_warning({42.5, 0.0});
    EXPECT_NE(other.find("42.5 %"), std::string::npos) << other;
    EXPECT_NE(other.find("quiet machine"), std::string::npos) << other;
    EXPECT_NE(busy_host_warning({0.0, 6.0}), "");
}

TEST(HostLoad, MonitorReadsThisMachine) {
    const HostLoadMonitor monitor;
    const auto load = monitor.stop();
    ASSERT_TRUE(load) << "/proc/stat is readable on Linux";
    EXPECT_GE(load->other_cpu_pct, 0.0);
    EXPECT_LE(load->other_cpu_pct, 100.0);
}

}  // namespace
}  // namespace trainscope::harness
