#include "harness/capture/HostLoadMonitor.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/isolation/RankLaunch.hpp"
#include "reports/quality/MeasurementWarnings.hpp"

namespace trainscope::harness {
namespace {

// The cell's own CPU time: its process and the processes it started and waited for (a
// PyTorch cell's worker is one), which are the cell's work, not the machine's other load.
double own_cpu_ticks() {
    const auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    double total = 0.0;
    for (const int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage usage{};
        if (getrusage(who, &usage) == 0)
            total += seconds(usage.ru_utime) + seconds(usage.ru_stime);
    }
    return total * static_cast<double>(sysconf(_SC_CLK_TCK));
}

std::optional<MachineCpuTicks> read_machine_ticks() {
    std::ifstream file("/proc/stat");
    if (!file) {
        return std::nullopt;
    }
    std::ostringstream text;
    text << file.rdbuf();
    return parse_proc_stat(text.str());
}

std::string read_file(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

double share_pct(double part, double whole) {
    return whole > 0.0 ? std::max(0.0, 100.0 * part / whole) : 0.0;
}

}  // namespace

std::optional<MachineCpuTicks> parse_proc_stat(std::string_view text) {
    // The aggregate line comes first: "cpu  user nice system idle iowait irq softirq steal
    // [guest guest_nice]"; per-core lines are "cpu0 ...".
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (line.substr(0, 4) != "cpu ") {
            continue;
        }
        line.remove_prefix(4);
        std::array<std::uint64_t, 8> fields{};
        std::size_t count = 0;
        while (count < fields.size()) {
            const std::size_t start = line.find_first_not_of(' ');
            if (start == std::string_view::npos) {
                break;
            }
            line.remove_prefix(start);
            const auto [next, error] =
                std::from_chars(line.data(), line.data() + line.size(), fields[count]);
            if (error != std::errc()) {
                return std::nullopt;
            }
            line.remove_prefix(static_cast<std::size_t>(next - line.data()));
            ++count;
        }
        if (count < fields.size()) {
            return std::nullopt;
        }
        const auto [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
        MachineCpuTicks ticks;
        ticks.busy = user + nice + system + irq + softirq;
        ticks.steal = steal;
        ticks.total = ticks.busy + idle + iowait + steal;
        return ticks;
    }
    return std::nullopt;
}

std::optional<ProcessCpu> parse_proc_pid_stat(std::string_view text) {
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so fields are
    // counted from the last ')'. After it: state (3) ppid (4) ... utime (14) stime (15)
    // cutime (16) cstime (17).
    const std::size_t close = text.rfind(')');
    if (close == std::string_view::npos)
        return std::nullopt;
    std::istringstream fields(std::string(text.substr(close + 1)));
    std::string state;
    long long values[15] = {};  // fields 4..17
    fields >> state;
    for (long long& v : values) {
        if (!(fields >> v))
            return std::nullopt;
    }
    ProcessCpu cpu;
    cpu.ppid = static_cast<pid_t>(values[0]);
    cpu.ticks = static_cast<double>(values[10] + values[11] + values[12] + values[13]);
    return cpu;
}

std::map<pid_t, double> sibling_process_ticks() {
    std::map<pid_t, double> siblings;
    std::error_code ec;
    const auto self_exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        return siblings;
    const pid_t self = getpid();
    const pid_t parent = getppid();
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        pid_t pid = 0;
        const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), pid);
        if (error != std::errc{} || end != name.data() + name.size() || pid == self)
            continue;
        const auto cpu = parse_proc_pid_stat(read_file(entry.path() / "stat"));
        if (!cpu || cpu->ppid != parent)
            continue;
        std::error_code exe_error;
        if (std::filesystem::read_symlink(entry.path() / "exe", exe_error) == self_exe &&
            !exe_error)
            siblings[pid] = cpu->ticks;
    }
    return siblings;
}

HostLoad host_load_between(const MachineCpuTicks& start, const MachineCpuTicks& end,
                           double own_cpu_ticks) {
    const auto delta = [](std::uint64_t a, std::uint64_t b) {
        return b >= a ? static_cast<double>(b - a) : 0.0;
    };
    const double total = delta(start.total, end.total);
    HostLoad load;
    load.other_cpu_pct = share_pct(delta(start.busy, end.busy) - own_cpu_ticks, total);
    load.steal_pct = share_pct(delta(start.steal, end.steal), total);
    return load;
}

std::string busy_host_warning(const HostLoad& load) {
    if (load.other_cpu_pct <= reports::kBusyHostOtherCpuPct &&
        load.steal_pct <= reports::kBusyHostStealPct) {
        return "";
    }
    return fmt::format(
        "the machine was busy: other processes used {:.1f} % of its CPU time and the "
        "hypervisor took {:.1f} % while this cell ran, so its timings include waiting for "
        "cores; rerun it on a quiet machine",
        load.other_cpu_pct, load.steal_pct);
}

HostLoadMonitor::HostLoadMonitor()
    : start_machine_(read_machine_ticks()),
      start_own_ticks_(own_cpu_ticks()),
      rank_(launched_rank().has_value()) {
    if (rank_)
        start_siblings_ = sibling_process_ticks();
}

std::optional<HostLoad> HostLoadMonitor::stop() const {
    const std::optional<MachineCpuTicks> end = read_machine_ticks();
    if (!start_machine_ || !end) {
        return std::nullopt;
    }
    double own = own_cpu_ticks() - start_own_ticks_;
    if (rank_) {
        for (const auto& [pid, ticks] : sibling_process_ticks()) {
            const auto before = start_siblings_.find(pid);
            own += ticks - (before != start_siblings_.end() ? before->second : 0.0);
        }
    }
    return host_load_between(*start_machine_, *end, own);
}

}  // namespace trainscope::harness
