#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace trainscope::harness {

struct ProcessOutput {
    int exit_code = -1;  // -1: killed by a signal
    std::string out;
    std::string err;
};

// Runs a program (looked up on PATH) to its end and returns what it printed. Throws
// std::runtime_error when it cannot be started at all.
ProcessOutput run_process(const std::vector<std::string>& argv);

// A started program that talks over pipes: `to_child` is its stdin, `from_child` its
// stdout; its stderr goes to `stderr_file`. The caller owns both descriptors and reaps
// `pid` (wait_for_exit). Throws std::runtime_error when it cannot be started.
struct PipedProcess {
    int pid = -1;
    int to_child = -1;
    int from_child = -1;
};
PipedProcess spawn_piped(const std::vector<std::string>& argv,
                         const std::filesystem::path& stderr_file);

// Waits for `pid` to end: its exit code, or -1 when a signal ended it.
int wait_for_exit(int pid);

// The program's path when PATH has an executable of that name.
std::optional<std::filesystem::path> find_on_path(const std::string& program);

}  // namespace trainscope::harness
