#include "workloads/backends/cuda/DeferredLossRows.hpp"

namespace trainscope::workloads::cuda {

math::CrossEntropyRow* DeferredLossRows::queue(std::int64_t rows, cudaStream_t stream) {
    const std::size_t index = queued_.size();
    if (buffers_.size() <= index) {
        buffers_.resize(index + 1);
        // A captured graph writes these rows at the address it saw: never free it early.
        buffers_[index].keep_outgrown_blocks();
    }
    auto* data = static_cast<math::CrossEntropyRow*>(buffers_[index].reserve(
        static_cast<std::size_t>(rows) * sizeof(math::CrossEntropyRow), stream));
    queued_.push_back({data, rows});
    return data;
}

CrossEntropyTotals DeferredLossRows::take(cudaStream_t stream) {
    host_rows_.resize(queued_.size());
    for (std::size_t i = 0; i < queued_.size(); ++i) {
        std::vector<math::CrossEntropyRow>& rows = host_rows_[i];
        rows.resize(static_cast<std::size_t>(queued_[i].rows));
        const std::size_t bytes = rows.size() * sizeof(math::CrossEntropyRow);
        TS_CUDA_CHECK(
            cudaMemcpyAsync(rows.data(), queued_[i].data, bytes, cudaMemcpyDeviceToHost, stream));
        d2h_bytes_ += static_cast<std::int64_t>(bytes);
    }
    TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    CrossEntropyTotals totals;
    for (std::size_t i = 0; i < queued_.size(); ++i) {
        for (const math::CrossEntropyRow& row : host_rows_[i]) {
            totals.loss_sum += row.loss;
            totals.correct += row.correct;
        }
        totals.count += queued_[i].rows;
    }
    queued_.clear();
    return totals;
}

}  // namespace trainscope::workloads::cuda
