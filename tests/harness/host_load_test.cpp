// How busy the rest of the machine was while a cell trained: /proc/stat parsing, the
// shares of other processes and of the hypervisor, and when the run is flagged.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ctime>

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

TEST(HostLoad, ParsesAProcessStatLineWhoseNameHasSpacesAndParentheses) {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime stime cutime cstime ...
    const auto cpu = parse_proc_pid_stat(
        "4242 (trainscope (rank) 1) R 4200 4200 4200 0 -1 4194304 10 0 0 0 150 30 7 3 20 0 "
        "3 0 100 0\n");
    ASSERT_TRUE(cpu);
    EXPECT_EQ(cpu->ppid, 4200);
    EXPECT_DOUBLE_EQ(cpu->ticks, 150.0 + 30 + 7 + 3);
    EXPECT_FALSE(parse_proc_pid_stat("4242 (x) R 1 2 3"));
    EXPECT_FALSE(parse_proc_pid_stat(""));
}

// Two children of this test forked alike run the same program under the same parent, as
// a cell's ranks do under mpirun: each sees the other, with the CPU it burnt, and not
// itself nor this test process.
TEST(HostLoad, SiblingRanksAreTheProcessesOfThisProgramUnderTheSameParent) {
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    const pid_t busy = fork();
    ASSERT_GE(busy, 0);
    if (busy == 0) {
        // Burns 0.25 s of its own CPU (however long a loaded machine takes), then says so.
        timespec used{};
        volatile double x = 0.0;
        do {
            for (int i = 0; i < 100000; ++i)
                x = x + 1.0;
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used);
        } while (used.tv_sec == 0 && used.tv_nsec < 250'000'000);
        [[maybe_unused]] const auto put = write(ready[1], "1", 1);
        pause();
        _exit(0);
    }
    char byte = 0;
    ASSERT_EQ(read(ready[0], &byte, 1), 1);
    close(ready[0]);
    close(ready[1]);
    const pid_t looker = fork();
    ASSERT_GE(looker, 0);
    if (looker == 0) {
        const auto siblings = sibling_process_ticks();
        const auto it = siblings.find(busy);
        const bool ok = it != siblings.end() && it->second >= 0.2 * sysconf(_SC_CLK_TCK) &&
                        siblings.count(getpid()) == 0 && siblings.count(getppid()) == 0;
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    waitpid(looker, &status, 0);
    kill(busy, SIGKILL);
    waitpid(busy, nullptr, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0)
        << "the looking child did not see its busy sibling with >= 0.2 s of CPU";
    EXPECT_TRUE(sibling_process_ticks().count(busy) == 0) << "not a sibling of the parent";
}

}  // namespace
}  // namespace trainscope::harness
