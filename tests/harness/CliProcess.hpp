#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace trainscope::testing {

struct CliResult {
    int exit_code = -1;
    std::string output;  // stdout and stderr together
};

// Runs the built `trainscope` binary with a shell-quoted argument string.
inline CliResult run_trainscope(const std::string& arguments) {
    const std::string command = std::string(TRAINSCOPE_CLI) + " " + arguments + " 2>&1";
    CliResult result;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return result;
    std::array<char, 4096> buffer{};
    while (fgets(buffer.data(), buffer.size(), pipe) != nullptr) result.output += buffer.data();
    const int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

}  // namespace trainscope::testing
