#pragma once

#include <string>

#include "workloads/backend/MemoryStrategy.hpp"

namespace trainscope::workloads {

// Why cuda_graph=true cannot run on the CUDA backend with this allocator
// (docs/cuda-backend.md, "CUDA graphs"): a ConfigError message that names cuda_graph,
// says why and what to use instead; empty when the combination runs. Shared by the
// engine's validation, the CUDA backend's options and the harness, which skips such
// cells before starting them. Every precision runs (fp16's overflow skip is device work).
std::string cuda_graph_refusal(Allocator allocator);

}  // namespace trainscope::workloads
