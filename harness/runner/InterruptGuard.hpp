#pragma once

#include <atomic>
#include <csignal>

namespace trainscope::harness {

// While alive, Ctrl-C (SIGINT) and SIGTERM set a flag instead of killing the process,
// so the matrix records what finished before it stops. Restores the old handlers.
class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    [[nodiscard]] const std::atomic<bool>& flag() const;
    [[nodiscard]] bool interrupted() const { return flag().load(); }

private:
    struct sigaction old_int_{};
    struct sigaction old_term_{};
};

}  // namespace trainscope::harness
