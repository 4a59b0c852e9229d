#pragma once

namespace trainscope::workloads {

// The CPU threads one rank of a multi-rank cell uses when --threads is not given: the
// node's cores divided among the ranks on it, at least one. Every rank taking all the
// cores (the single-rank default) oversubscribes them: 2 ranks on 2 cores ran 4 spinning
// OpenMP workers, and a 2-rank seed-cnn cell reached 0.24 efficiency against 0.41 with one
// thread per rank (docs/distributed.md). torchrun sets OMP_NUM_THREADS=1 whenever a node
// runs several processes; dividing keeps the cores busy when there are more than ranks.
int default_rank_threads(int hardware_threads, int ranks_on_node);

}  // namespace trainscope::workloads
