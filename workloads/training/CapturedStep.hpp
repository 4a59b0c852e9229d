#pragma once

#include <cstdint>
#include <optional>

#include "workloads/datasets/BatchLoader.hpp"
#include "workloads/layers/StepContext.hpp"
#include "workloads/memory/StepArena.hpp"
#include "workloads/memory/TensorAllocator.hpp"

namespace trainscope::workloads {

// The engine's side of cuda_graph=true (docs/cuda-backend.md, "CUDA graphs"), in the
// manner of torch.cuda.graphs: the first kEagerSteps steps run eagerly, which settles
// cuDNN's algorithm choices, the backend's workspaces and this arena's blocks; the next
// step is captured by the backend and run once; every later step is a replay.
// - The step's tensors (activations, gradients of activations, dlogits) come from
//   `arena`, which nothing else uses and which keeps its blocks for the whole run, so
//   the graph's addresses stay valid; evaluation uses the run's normal allocator.
// - fp16: the overflow check and the skipped update are device work inside the graph;
//   the loss scale is a kernel argument, so a step with another scale is captured anew.
// - `input` is the fixed-address batch the graph reads: each step's loaded batch (any
//   host_memory/transfer/placement path, run eagerly before the launch) is copied there
//   on the stream.
struct CapturedStep {
    // Two eager steps: the first makes every choice and allocation, the second proves
    // them settled (it runs through the filled arena like the capture will).
    static constexpr std::int64_t kEagerSteps = 2;

    CapturedStep(RawAllocator& upstream, MemoryLedger& ledger)
        : arena(upstream), tensors(arena, ledger) {}

    StepArena arena;
    TensorAllocator tensors;
    std::optional<StepContext> context;  // over `tensors`
    Batch input;
    bool captured = false;
    // The loss scale the captured kernels hold (1 without fp16); another scale recaptures.
    double captured_loss_scale = 1.0;
    std::int64_t captures = 0;
};

}  // namespace trainscope::workloads
