#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trainscope::harness {

// CPU time of the whole machine, from the aggregate "cpu" line of /proc/stat, in clock
// ticks (USER_HZ).
struct MachineCpuTicks {
    std::uint64_t busy = 0;   // user + nice + system + irq + softirq (guest is inside user)
    std::uint64_t steal = 0;  // taken by the hypervisor for other guests
    std::uint64_t total = 0;  // busy + idle + iowait + steal
};

// nullopt when the text has no aggregate "cpu " line with at least eight numbers.
std::optional<MachineCpuTicks> parse_proc_stat(std::string_view text);

// What else ran on the machine while a cell trained, as shares of all cores' time.
struct HostLoad {
    double other_cpu_pct = 0.0;  // used by processes other than the cell's
    double steal_pct = 0.0;      // stolen by the hypervisor
};

// own_cpu_ticks: the cell process's user + system time over the same interval, in the
// same ticks. Shares below zero (tick rounding) read as zero.
HostLoad host_load_between(const MachineCpuTicks& start, const MachineCpuTicks& end,
                           double own_cpu_ticks);

// The warning for a cell measured on a busy machine, or "" when the load is below the
// thresholds of reports/quality/MeasurementWarnings.hpp.
std::string busy_host_warning(const HostLoad& load);

// Reads the machine's and this process's CPU time when made and again at stop().
class HostLoadMonitor {
  public:
    HostLoadMonitor();
    // nullopt where /proc/stat cannot be read (not Linux).
    [[nodiscard]] std::optional<HostLoad> stop() const;

  private:
    std::optional<MachineCpuTicks> start_machine_;
    double start_own_ticks_ = 0.0;
};

}  // namespace trainscope::harness
