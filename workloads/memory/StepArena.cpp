#include "workloads/memory/StepArena.hpp"

#include <stdexcept>

namespace trainscope::workloads {

void* StepArena::allocate(std::size_t bytes, TensorClass tensor_class) {
    // Checked before the pool is asked: on an upstream failure the pool would give its
    // cache back upstream (cudaFree, illegal inside capture) and retry.
    if (sealed_ && !pool_.has_cached_block(bytes)) {
        throw std::logic_error(
            "step arena: a captured step asked for a " + std::to_string(bytes) +
            "-byte block that its warm-up step did not leave free; the captured step must "
            "repeat the warm-up step's tensor requests (same shapes, same order)");
    }
    return pool_.allocate(bytes, tensor_class);
}

}  // namespace trainscope::workloads
