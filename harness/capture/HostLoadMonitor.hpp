#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
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

// One process's /proc/<pid>/stat: its parent and its CPU time (user + system, its own and
// its waited-for children's) in clock ticks. nullopt for text that is not such a line.
struct ProcessCpu {
    pid_t ppid = 0;
    double ticks = 0.0;
};
std::optional<ProcessCpu> parse_proc_pid_stat(std::string_view text);

// CPU ticks of the other processes that run this same program under this process's
// parent, by pid: a multi-rank cell's sibling ranks on this node (mpirun's or
// slurmstepd's children), which are the cell's own work, not a foreign load.
std::map<pid_t, double> sibling_process_ticks();

// Reads the machine's and this process's CPU time when made and again at stop(). In a
// rank of a multi-rank cell (started by mpirun or srun) the cell's own time also holds its
// sibling ranks on this node: a rank that was there at the start counts from its ticks
// then, one that started later from zero; one that ended before stop() is lost (it would
// read as other load, so a cell is never called quiet wrongly).
class HostLoadMonitor {
  public:
    HostLoadMonitor();
    // nullopt where /proc/stat cannot be read (not Linux).
    [[nodiscard]] std::optional<HostLoad> stop() const;

  private:
    std::optional<MachineCpuTicks> start_machine_;
    double start_own_ticks_ = 0.0;
    bool rank_ = false;
    std::map<pid_t, double> start_siblings_;
};

}  // namespace trainscope::harness
