#include "harness/executor/Subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

extern char** environ;

namespace trainscope::harness {

void OwnedFd::reset() noexcept {
    if (fd_ >= 0)
        close(fd_);
    fd_ = -1;
}

namespace {

struct Pipe {
    OwnedFd read;
    OwnedFd write;
    Pipe() {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0)
            throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
        read = OwnedFd(fds[0]);
        write = OwnedFd(fds[1]);
    }
};

// Reads both pipes to their ends; polling both keeps a child that fills one from
// blocking while we wait on the other.
void drain(Pipe& out, Pipe& err, std::string& out_text, std::string& err_text) {
    std::array<pollfd, 2> fds{pollfd{out.read.get(), POLLIN, 0}, pollfd{err.read.get(), POLLIN, 0}};
    std::array<std::string*, 2> texts{&out_text, &err_text};
    int open_count = 2;
    std::array<char, 4096> buffer{};
    while (open_count > 0) {
        if (poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR)
                continue;
            throw std::runtime_error(std::string("poll failed: ") + std::strerror(errno));
        }
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0)
                continue;
            const ssize_t n = ::read(fds[i].fd, buffer.data(), buffer.size());
            if (n > 0) {
                texts[i]->append(buffer.data(), static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                fds[i].fd = -1;
                --open_count;
            }
        }
    }
}

}  // namespace

ProcessOutput run_process(const std::vector<std::string>& argv) {
    Pipe out;
    Pipe err;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out.write.get(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err.write.get(), STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        throw std::runtime_error("cannot start " + argv.front() + ": " + std::strerror(rc));
    }
    out.write.reset();
    err.write.reset();
    ProcessOutput result;
    drain(out, err, result.out, result.err);
    result.exit_code = wait_for_exit(pid);
    return result;
}

int wait_for_exit(int pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

PipedProcess spawn_piped(const std::vector<std::string>& argv,
                         const std::filesystem::path& stderr_file) {
    Pipe in;
    Pipe out;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in.read.get(), STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out.write.get(), STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        throw std::runtime_error("cannot start " + argv.front() + ": " + std::strerror(rc));
    PipedProcess process;
    process.pid = pid;
    process.to_child = std::move(in.write);
    process.from_child = std::move(out.read);
    return process;
}

std::optional<std::filesystem::path> find_on_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (path == nullptr)
        return std::nullopt;
    const std::string text = path;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto end = text.find(':', start);
        const std::filesystem::path dir = text.substr(start, end - start);
        const auto candidate = (dir.empty() ? std::filesystem::path(".") : dir) / program;
        if (access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate))
            return candidate;
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return std::nullopt;
}

}  // namespace trainscope::harness
