#pragma once

#include <algorithm>
#include <cstdint>

namespace trainscope::workloads {

// The CPU kernels' workers: an OpenMP team of `threads`, the same team oneDNN's
// convolutions run on, so the two never compete for cores (idle OpenMP workers spin for a
// while before they sleep; a second pool of threads would fight them for every core).
// parallel_for splits [0, count) into one contiguous chunk per worker; the split depends
// only on count and the number of workers, so results that reduce per chunk are the same
// from run to run. Calls from one thread at a time; the calling thread works on chunk 0.
class ThreadPool {
  public:
    explicit ThreadPool(int threads) : threads_(std::max(1, threads)) {}
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return threads_; }

    // body(begin, end, worker) must not throw.
    template <typename Body>
    void parallel_for(std::int64_t count, const Body& body) {
        if (count <= 0) {
            return;
        }
        const int workers = static_cast<int>(std::min<std::int64_t>(threads_, count));
        if (workers == 1) {
            body(std::int64_t{0}, count, 0);
            return;
        }
        run(count, workers, &invoke<Body>, &body);
    }

    // The chunk [begin, end) that `worker` of `workers` gets from [0, count).
    static std::int64_t chunk_begin(std::int64_t count, int workers, int worker) {
        return count * worker / workers;
    }

  private:
    using Trampoline = void (*)(const void* body, std::int64_t begin, std::int64_t end, int worker);

    template <typename Body>
    static void invoke(const void* body, std::int64_t begin, std::int64_t end, int worker) {
        (*static_cast<const Body*>(body))(begin, end, worker);
    }

    void run(std::int64_t count, int workers, Trampoline trampoline, const void* body);

    int threads_;
};

}  // namespace trainscope::workloads
