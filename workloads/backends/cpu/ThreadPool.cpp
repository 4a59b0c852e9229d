#include "workloads/backends/cpu/ThreadPool.hpp"

#include <algorithm>

namespace trainscope::workloads {

ThreadPool::ThreadPool(int threads) : threads_(std::max(1, threads)) {
    threads_running_.reserve(static_cast<std::size_t>(threads_ - 1));
    for (int worker = 1; worker < threads_; ++worker) {
        threads_running_.emplace_back([this, worker] { worker_loop(worker); });
    }
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    work_ready_.notify_all();
    for (std::thread& thread : threads_running_) {
        thread.join();
    }
}

void ThreadPool::run(std::int64_t count, int workers, Trampoline trampoline, const void* body) {
    {
        std::lock_guard lock(mutex_);
        count_ = count;
        workers_ = workers;
        trampoline_ = trampoline;
        body_ = body;
        pending_ = workers - 1;
        ++generation_;
    }
    work_ready_.notify_all();
    trampoline(body, 0, chunk_begin(count, workers, 1), 0);
    std::unique_lock lock(mutex_);
    work_done_.wait(lock, [this] { return pending_ == 0; });
}

void ThreadPool::worker_loop(int worker) {
    std::uint64_t seen = 0;
    for (;;) {
        std::int64_t count = 0;
        int workers = 0;
        Trampoline trampoline = nullptr;
        const void* body = nullptr;
        {
            std::unique_lock lock(mutex_);
            work_ready_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) {
                return;
            }
            seen = generation_;
            if (worker >= workers_) {
                continue;
            }
            count = count_;
            workers = workers_;
            trampoline = trampoline_;
            body = body_;
        }
        trampoline(body, chunk_begin(count, workers, worker),
                   chunk_begin(count, workers, worker + 1), worker);
        bool last = false;
        {
            std::lock_guard lock(mutex_);
            last = --pending_ == 0;
        }
        if (last) {
            work_done_.notify_one();
        }
    }
}

}  // namespace trainscope::workloads
