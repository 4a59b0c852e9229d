#pragma once

#include <string>
#include <vector>

#include "workloads/layers/Parameter.hpp"
#include "workloads/layers/StepContext.hpp"
#include "workloads/tensor/Shape.hpp"

namespace trainscope::workloads {

// One stage of a network. Shapes are per sample (no batch dimension) and fixed at
// construction, which is where a layer rejects an input it cannot take (ConfigError).
// forward keeps what backward needs until release_saved(); backward writes the
// parameter gradients and returns the input gradient (an empty tensor when
// need_input_gradient is false, as for the first layer).
class Layer {
  public:
    virtual ~Layer() = default;
    Layer(const Layer&) = delete;
    Layer& operator=(const Layer&) = delete;

    virtual std::string name() const = 0;
    const Shape& input_shape() const { return input_shape_; }
    const Shape& output_shape() const { return output_shape_; }

    virtual std::vector<Parameter*> parameters() { return {}; }
    virtual std::vector<StateBuffer*> buffers() { return {}; }

    virtual Tensor forward(StepContext& context, const Tensor& x) = 0;
    virtual Tensor backward(StepContext& context, const Tensor& dy, bool need_input_gradient) = 0;
    virtual void release_saved() = 0;

  protected:
    Layer(const Shape& input_shape, const Shape& output_shape)
        : input_shape_(input_shape), output_shape_(output_shape) {}

  private:
    Shape input_shape_;
    Shape output_shape_;
};

}  // namespace trainscope::workloads
