#include "workloads/training/CudaGraphSupport.hpp"

namespace trainscope::workloads {

std::string cuda_graph_refusal(std::string_view precision, std::string_view allocator) {
    if (precision == "fp16") {
        return "cuda_graph: true cannot run precision fp16: its dynamic loss scaling reads "
               "the gradients' overflow check back to the host and skips the update on "
               "overflow, which a step captured into a CUDA graph cannot do; use "
               "cuda_graph=false with fp16, or bf16/fp32/tf32/fp64 with cuda_graph=true";
    }
    if (allocator == "managed") {
        return "cuda_graph: true cannot run with allocator managed: managed tensors are "
               "prefetched to the device when they are allocated, and a replayed graph never "
               "prefetches again, so pages the host or evaluation touched would fault inside "
               "the graph; use allocator=pool, async or device with cuda_graph=true";
    }
    return "";
}

}  // namespace trainscope::workloads
