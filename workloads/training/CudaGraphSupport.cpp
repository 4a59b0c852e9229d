#include "workloads/training/CudaGraphSupport.hpp"

namespace trainscope::workloads {

std::string cuda_graph_refusal(Allocator allocator) {
    if (allocator == Allocator::managed) {
        return "cuda_graph: true cannot run with allocator managed: managed tensors are "
               "prefetched to the device when they are allocated, and a replayed graph never "
               "prefetches again, so pages the host or evaluation touched would fault inside "
               "the graph; use allocator=pool, async or device with cuda_graph=true";
    }
    return "";
}

}  // namespace trainscope::workloads
