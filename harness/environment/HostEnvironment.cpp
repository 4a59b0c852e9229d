#include "harness/environment/HostEnvironment.hpp"

#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "trainscope/version.hpp"

namespace trainscope::harness {

namespace {
std::string cpu_model() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                auto value = line.substr(colon + 1);
                value.erase(0, value.find_first_not_of(' '));
                return value;
            }
        }
    }
    return "unknown";
}
}  // namespace

int hardware_threads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

std::map<std::string, std::string> probe_host_environment() {
    std::map<std::string, std::string> env;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0)
        env["host"] = host;
    utsname uts{};
    if (uname(&uts) == 0) {
        env["os"] = fmt::format("{} {} {}", uts.sysname, uts.release, uts.machine);
    }
    env["cpu_model"] = cpu_model();
    env["hardware_threads"] = std::to_string(hardware_threads());
    env["trainscope_version"] = kVersion;
    env["git_revision"] = kGitRevision;
    env["compiler"] = fmt::format("gcc {}", __VERSION__);
    env["sqlite_version"] = sqlite3_libversion();
    env["fmt_version"] = std::to_string(FMT_VERSION);
    return env;
}

}  // namespace trainscope::harness
