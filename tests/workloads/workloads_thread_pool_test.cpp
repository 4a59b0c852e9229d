// The CPU backend's workers: every index once, in the fixed chunks that make per-chunk
// reductions reproducible, with the calling thread on chunk 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "workloads/backends/cpu/ThreadPool.hpp"

namespace trainscope::workloads {
namespace {

TEST(WorkloadsThreadPool, CoversEveryIndexOnceInFixedChunks) {
    for (int threads : {1, 2, 3}) {
        ThreadPool pool(threads);
        for (std::int64_t count : {1, 2, 7, 1000}) {
            std::vector<int> hits(static_cast<std::size_t>(count), 0);
            std::vector<int> owner(static_cast<std::size_t>(count), -1);
            pool.parallel_for(count, [&](std::int64_t begin, std::int64_t end, int worker) {
                for (std::int64_t i = begin; i < end; ++i) {
                    ++hits[static_cast<std::size_t>(i)];
                    owner[static_cast<std::size_t>(i)] = worker;
                }
            });
            const int workers = static_cast<int>(std::min<std::int64_t>(threads, count));
            for (std::int64_t i = 0; i < count; ++i) {
                ASSERT_EQ(hits[static_cast<std::size_t>(i)], 1) << "index " << i;
            }
            for (int worker = 0; worker < workers; ++worker) {
                for (std::int64_t i = ThreadPool::chunk_begin(count, workers, worker);
                     i < ThreadPool::chunk_begin(count, workers, worker + 1); ++i) {
                    ASSERT_EQ(owner[static_cast<std::size_t>(i)], worker)
                        << "index " << i << " threads " << threads;
                }
            }
        }
    }
}

TEST(WorkloadsThreadPool, CallingThreadRunsChunkZero) {
    ThreadPool pool(2);
    const std::thread::id caller = std::this_thread::get_id();
    std::thread::id chunk_zero;
    std::thread::id chunk_one;
    pool.parallel_for(2, [&](std::int64_t begin, std::int64_t, int) {
        (begin == 0 ? chunk_zero : chunk_one) = std::this_thread::get_id();
    });
    EXPECT_EQ(chunk_zero, caller);
    EXPECT_NE(chunk_one, caller);
}

}  // namespace
}  // namespace trainscope::workloads
