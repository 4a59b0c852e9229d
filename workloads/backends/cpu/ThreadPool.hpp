#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace trainscope::workloads {

// A fixed set of worker threads for the CPU kernels. parallel_for splits [0, count)
// into one contiguous chunk per worker; the split depends only on count and the number
// of workers, so results that reduce per chunk are the same from run to run. Calls from
// one thread at a time; the calling thread works on chunk 0.
class ThreadPool {
  public:
    explicit ThreadPool(int threads);
    ~ThreadPool();
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
    void worker_loop(int worker);

    int threads_;
    std::vector<std::thread> threads_running_;
    std::mutex mutex_;
    std::condition_variable work_ready_;
    std::condition_variable work_done_;
    std::uint64_t generation_ = 0;
    int pending_ = 0;
    bool stopping_ = false;
    std::int64_t count_ = 0;
    int workers_ = 0;
    Trampoline trampoline_ = nullptr;
    const void* body_ = nullptr;
};

}  // namespace trainscope::workloads
