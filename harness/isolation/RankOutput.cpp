#include "harness/isolation/RankOutput.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace trainscope::harness {

RankOutput::RankOutput() {
    int ends[2] = {-1, -1};
    if (pipe2(ends, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("pipe for mpirun's output: ") + std::strerror(errno));
    read_ = ends[0];
    write_ = ends[1];
    fcntl(read_, F_SETFL, fcntl(read_, F_GETFL) | O_NONBLOCK);
}

RankOutput::~RankOutput() {
    close_write_end();
    if (read_ >= 0)
        close(read_);
}

void RankOutput::close_write_end() {
    if (write_ >= 0) {
        close(write_);
        write_ = -1;
    }
}

void RankOutput::drain() {
    char buffer[4096];
    for (;;) {
        const ssize_t got = read(read_, buffer, sizeof buffer);
        if (got <= 0)
            return;  // EAGAIN: nothing more now; 0: mpirun is gone
        text_.append(buffer, static_cast<std::size_t>(got));
        [[maybe_unused]] const ssize_t put =
            write(STDERR_FILENO, buffer, static_cast<std::size_t>(got));
    }
}

std::string mpirun_rank_verdict(const std::string& mpirun_output) {
    const auto at = mpirun_output.find("process rank ");
    if (at == std::string::npos)
        return "";
    auto end = mpirun_output.find('\n', at);
    std::string line = mpirun_output.substr(at, end == std::string::npos ? end : end - at);
    while (!line.empty() && (line.back() == '.' || line.back() == '\r' || line.back() == ' '))
        line.pop_back();
    return "mpirun: " + line;
}

std::string srun_rank_verdict(const std::string& srun_output) {
    std::string verdict;
    std::size_t at = 0;
    while ((at = srun_output.find("srun: error: ", at)) != std::string::npos) {
        const auto end = srun_output.find('\n', at);
        const std::string line = srun_output.substr(at, end == std::string::npos ? end : end - at);
        // Only the per-task lines: the step's own ("job step aborted") name no rank.
        if (line.find(": task ") != std::string::npos)
            verdict += (verdict.empty() ? "" : "; ") + line;
        if (end == std::string::npos)
            break;
        at = end;
    }
    return verdict;
}

}  // namespace trainscope::harness
