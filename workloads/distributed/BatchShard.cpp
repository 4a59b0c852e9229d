#include "workloads/distributed/BatchShard.hpp"

#include <stdexcept>
#include <string>

namespace trainscope::workloads {

RowRange shard_rows(std::int64_t global_batch, int rank, int ranks) {
    if (ranks < 1 || rank < 0 || rank >= ranks) {
        throw std::logic_error("shard_rows: rank " + std::to_string(rank) + " of " +
                               std::to_string(ranks));
    }
    const std::int64_t begin = rank * global_batch / ranks;
    const std::int64_t end = (rank + 1) * global_batch / ranks;
    return RowRange{begin, end - begin};
}

}  // namespace trainscope::workloads
