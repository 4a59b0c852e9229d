// The global operator new of the contract-allocation test executable: counts every
// allocation of every thread, so a test can assert that a stretch of code allocates nothing.
#include "counting_new.hpp"

#include <execinfo.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

namespace {

std::atomic<long> g_allocations{0};  // every thread's
std::atomic<bool> g_trace{false};
std::atomic<int> g_in_library{0};  // threads inside a library call (enter_library)
std::atomic<long> g_library_allocations{0};

// backtrace_symbols_fd writes without allocating; the guard keeps backtrace()'s own
// first-call allocation (loading libgcc) from recursing.
void trace_allocation(std::size_t bytes) {
    thread_local bool inside = false;
    if (!g_trace.load(std::memory_order_relaxed) || inside) {
        return;
    }
    inside = true;
    char line[64];
    const int n = snprintf(line, sizeof line, "-- host allocation of %zu bytes:\n", bytes);
    (void)!write(STDERR_FILENO, line, static_cast<std::size_t>(n));
    void* frames[24];
    backtrace_symbols_fd(frames, backtrace(frames, 24), STDERR_FILENO);
    inside = false;
}

void count(std::size_t bytes) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (g_in_library.load(std::memory_order_relaxed) > 0) {
        g_library_allocations.fetch_add(1, std::memory_order_relaxed);
        return;  // not traced: the trace is for the allocations a change can remove
    }
    trace_allocation(bytes);
}

void* counted(std::size_t bytes) {
    count(bytes);
    if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) {
        return p;
    }
    throw std::bad_alloc();
}

void* counted_aligned(std::size_t bytes, std::align_val_t align) {
    count(bytes);
    const auto alignment = static_cast<std::size_t>(align);
    const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    if (void* p = std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded)) {
        return p;
    }
    throw std::bad_alloc();
}

}  // namespace

void* operator new(std::size_t bytes) {
    return counted(bytes);
}
void* operator new[](std::size_t bytes) {
    return counted(bytes);
}
void* operator new(std::size_t bytes, std::align_val_t align) {
    return counted_aligned(bytes, align);
}
void* operator new[](std::size_t bytes, std::align_val_t align) {
    return counted_aligned(bytes, align);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}

long host_allocations() {
    return g_allocations.load();
}

void trace_host_allocations(bool on) {
    g_trace.store(on);
}

void enter_library() {
    g_in_library.fetch_add(1);
}
void leave_library() {
    g_in_library.fetch_sub(1);
}
long library_allocations() {
    return g_library_allocations.load();
}
