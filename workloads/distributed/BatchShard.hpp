#pragma once

#include <cstdint>

namespace trainscope::workloads {

// The rows of a global batch that one rank trains on: [begin, begin + count).
struct RowRange {
    std::int64_t begin = 0;
    std::int64_t count = 0;
};

// Rank r of n takes rows [r*B/n, (r+1)*B/n) of the global batch B the single-rank run
// draws, so the ranks together train on exactly its samples.
RowRange shard_rows(std::int64_t global_batch, int rank, int ranks);

}  // namespace trainscope::workloads
