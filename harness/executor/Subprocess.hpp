#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
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

// A file descriptor that closes itself: moved, never copied, so exactly one owner closes
// it, on every path out (an exception included).
class OwnedFd {
  public:
    OwnedFd() = default;
    explicit OwnedFd(int fd) noexcept : fd_(fd) {}
    ~OwnedFd() { reset(); }
    OwnedFd(OwnedFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    OwnedFd& operator=(OwnedFd&& other) noexcept {
        if (this != &other) {
            reset();
            fd_ = std::exchange(other.fd_, -1);
        }
        return *this;
    }
    OwnedFd(const OwnedFd&) = delete;
    OwnedFd& operator=(const OwnedFd&) = delete;

    [[nodiscard]] int get() const noexcept { return fd_; }
    // Closes it now: a child reading the other end of a pipe sees the end of its input.
    void reset() noexcept;

  private:
    int fd_ = -1;
};

// A started program that talks over pipes: `to_child` is its stdin, `from_child` its
// stdout; its stderr goes to `stderr_file`. Both descriptors close with the
// PipedProcess; the caller reaps `pid` (wait_for_exit). Throws std::runtime_error when it
// cannot be started.
struct PipedProcess {
    int pid = -1;
    OwnedFd to_child;
    OwnedFd from_child;
};
PipedProcess spawn_piped(const std::vector<std::string>& argv,
                         const std::filesystem::path& stderr_file);

// Waits for `pid` to end: its exit code, or -1 when a signal ended it.
int wait_for_exit(int pid);

// The program's path when PATH has an executable of that name.
std::optional<std::filesystem::path> find_on_path(const std::string& program);

}  // namespace trainscope::harness
