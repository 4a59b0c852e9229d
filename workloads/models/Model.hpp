#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/layers/FlatParameters.hpp"
#include "workloads/layers/FlatState.hpp"
#include "workloads/layers/Layer.hpp"

namespace trainscope::workloads {

// Told by Model::backward as each layer's backward has been queued: that layer's
// parameter gradients are then complete (data-parallel training starts a bucket's
// all-reduce on it).
class BackwardObserver {
  public:
    virtual ~BackwardObserver() = default;
    virtual void after_layer(std::size_t layer) = 0;
};

// A network as a chain of layers, with optional checkpointing: with recompute on, the
// chain is cut into about sqrt(L) segments; forward keeps only each segment's input and
// backward runs a segment's forward again just before its backward. Operations are
// deterministic, so recomputed activations and therefore gradients are bit-identical
// to keeping them.
class Model {
  public:
    Model(std::string name, const Shape& input_shape, std::vector<std::unique_ptr<Layer>> layers);

    const std::string& name() const { return name_; }
    const Shape& input_shape() const { return input_shape_; }
    const Shape& output_shape() const { return layers_.back()->output_shape(); }
    const std::vector<std::unique_ptr<Layer>>& layers() const { return layers_; }
    // Collected once at construction: the training loop walks them every step.
    const std::vector<Parameter*>& parameters() const { return parameters_; }
    const std::vector<StateBuffer*>& buffers() const { return buffers_; }
    std::int64_t parameter_count() const;

    // Allocates parameters, gradients and compute copies (mixed precision) as views into
    // flat buffers (FlatParameters), and the buffers; initializes them from `seed` in
    // layer order.
    void materialize(StepContext& context, std::uint64_t seed);
    // The flat buffers behind the parameters; after materialize().
    const FlatParameters& flat_parameters() const { return flat_; }
    // The running statistics in one buffer (after materialize).
    const FlatState& flat_state() const { return flat_state_; }
    // Copies masters into the fp16/bf16 compute copies (after every optimizer update):
    // FlatParameters::refresh_compute_copies.
    void refresh_compute_copies(StepContext& context) { flat_.refresh_compute_copies(context); }
    // Sets overflow (Backend::flag_non_finite) when any gradient holds an inf or NaN: one
    // check per gradient buffer. After materialize().
    void flag_non_finite_gradients(StepContext& context, Tensor& overflow) {
        flat_.flag_non_finite_gradients(context, overflow);
    }

    void set_recompute(bool recompute);
    bool recompute() const { return recompute_; }

    // In training mode keeps what backward needs; in evaluation keeps nothing.
    Tensor forward(StepContext& context, const Tensor& x);
    // Gradients of all parameters from the gradient of the loss with respect to the output;
    // observer (may be null) hears of each layer as its backward is queued.
    void backward(StepContext& context, const Tensor& doutput,
                  BackwardObserver* observer = nullptr);

  private:
    struct Segment {
        std::size_t begin = 0;
        std::size_t end = 0;
        bool checkpointed = false;
        Tensor input;
    };

    void plan_segments();

    std::string name_;
    Shape input_shape_;
    std::vector<std::unique_ptr<Layer>> layers_;
    std::vector<Parameter*> parameters_;
    std::vector<StateBuffer*> buffers_;
    bool recompute_ = false;
    std::vector<Segment> segments_;
    FlatParameters flat_;
    FlatState flat_state_;
};

}  // namespace trainscope::workloads
