#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "workloads/distributed/Communicator.hpp"
#include "workloads/distributed/GradientBuckets.hpp"
#include "workloads/models/Model.hpp"

namespace trainscope::workloads {

// Averages a model's gradients across ranks during backward, PyTorch DDP's way: the flat
// gradient buffers cut into buckets (plan_gradient_buckets), each bucket's all-reduce
// started as soon as backward has produced all of its gradients (after_layer, called by
// Model::backward after each layer), all waited for in finish(), before the optimizer.
// overlap=false starts them all in finish() instead, to measure what overlap saves.
class GradientSync final : public BackwardObserver {
  public:
    GradientSync(Communicator& communicator, const Model& model, std::int64_t bucket_bytes,
                 bool overlap);

    void after_layer(std::size_t layer) override;
    // Starts what is not started yet and returns once the averaged gradients may be read.
    void finish();
    const std::vector<GradientBucket>& buckets() const { return buckets_; }

  private:
    void start(std::size_t bucket);

    Communicator& communicator_;
    bool overlap_;
    std::vector<GradientBucket> buckets_;
    std::vector<Tensor> views_;  // each bucket's range of its gradient buffer
    // Per layer, one entry per parameter of the layer: the bucket holding its gradient.
    std::vector<std::vector<std::size_t>> buckets_of_layer_;
    std::vector<std::size_t> waiting_;  // per bucket, gradients still to come this step
    std::vector<bool> started_;
};

}  // namespace trainscope::workloads
