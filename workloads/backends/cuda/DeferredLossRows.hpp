#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/backends/cuda/CudaResources.hpp"
#include "workloads/backends/cuda/kernels/LossMath.hpp"

namespace trainscope::workloads::cuda {

// The per-row loss terms of deferred softmax_cross_entropy calls, kept on the device
// until the step is done (a captured step cannot copy them to the host while it runs).
// Call i of a step writes buffer i, so a replayed graph writes the same addresses its
// capture did; take() sums them on the host in call and row order, exactly as the
// immediate softmax_cross_entropy does.
class DeferredLossRows {
  public:
    // `rows` device rows at `data`: the address the call (and a graph capturing it)
    // wrote, which stays valid even if the buffer later grows (outgrown blocks are kept).
    struct Call {
        const math::CrossEntropyRow* data = nullptr;
        std::int64_t rows = 0;
    };

    // Device rows for the next call of `rows` rows; remembered until take().
    math::CrossEntropyRow* queue(std::int64_t rows, cudaStream_t stream);
    // Copies every queued call's rows to the host, waits for the stream, sums; clears.
    CrossEntropyTotals take(cudaStream_t stream);
    const std::vector<Call>& queued() const { return queued_; }
    // A replayed step wrote the rows of these (captured) calls again.
    void requeue(const std::vector<Call>& calls) { queued_ = calls; }
    std::int64_t d2h_bytes() const { return d2h_bytes_; }

  private:
    std::vector<DeviceScratch> buffers_;
    std::vector<Call> queued_;
    std::vector<std::vector<math::CrossEntropyRow>> host_rows_;
    std::int64_t d2h_bytes_ = 0;
};

}  // namespace trainscope::workloads::cuda
