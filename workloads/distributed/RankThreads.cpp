#include "workloads/distributed/RankThreads.hpp"

#include <algorithm>

namespace trainscope::workloads {

int default_rank_threads(int hardware_threads, int ranks_on_node) {
    return std::max(1, std::max(hardware_threads, 1) / std::max(ranks_on_node, 1));
}

}  // namespace trainscope::workloads
