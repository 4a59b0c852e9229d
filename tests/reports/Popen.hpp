#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace trainscope::testing {

struct CommandResult {
    int exit_code = -1;
    std::string output;  // stdout (stderr too when the command redirects it)
};

// Runs a shell command and collects its standard output.
inline CommandResult run_command(const std::string& command) {
    CommandResult result;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
        return result;
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
        result.output.append(buffer.data(), n);
    const int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

// Single-quotes a word for the shell.
inline std::string shell_quote(const std::string& word) {
    std::string out = "'";
    for (const char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

// Reads a CSV with Python's csv module (an independent reader): one line per cell,
// "row|column|repr(value)"; exit code non-zero when a row's width differs from the header.
inline CommandResult read_csv_with_python(const std::string& csv_path) {
    return run_command(
        "PYTHONIOENCODING=utf-8 python3 -c 'import csv,sys\n"
        "rows=list(csv.reader(open(sys.argv[1], newline=\"\", encoding=\"utf-8\")))\n"
        "h=rows[0]\n"
        "for i,r in enumerate(rows[1:]):\n"
        "  assert len(r)==len(h), (len(r), len(h))\n"
        "  for k,v in zip(h,r): print(f\"{i}|{k}|{v!r}\")\n' " +
        shell_quote(csv_path));
}

}  // namespace trainscope::testing
