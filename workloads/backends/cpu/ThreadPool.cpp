#include "workloads/backends/cpu/ThreadPool.hpp"

#include <omp.h>

namespace trainscope::workloads {

void ThreadPool::run(std::int64_t count, int workers, Trampoline trampoline, const void* body) {
    // The team may be smaller than asked (nested parallelism, thread limits); the chunks
    // follow the team actually formed, so every index is still covered exactly once.
#pragma omp parallel num_threads(workers)
    {
        const int team = omp_get_num_threads();
        const int worker = omp_get_thread_num();
        trampoline(body, chunk_begin(count, team, worker), chunk_begin(count, team, worker + 1),
                   worker);
    }
}

}  // namespace trainscope::workloads
