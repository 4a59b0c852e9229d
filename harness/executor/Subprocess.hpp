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

// The program's path when PATH has an executable of that name.
std::optional<std::filesystem::path> find_on_path(const std::string& program);

}  // namespace trainscope::harness
