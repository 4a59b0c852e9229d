#pragma once

#include <string>

#include "workloads/tensor/Shape.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {

// A model cannot take the input shape it was given; the model catalog turns it into a
// ConfigError that names input_shape.
class InputShapeError : public ConfigError {
  public:
    using ConfigError::ConfigError;
};

// Rejects a per-sample input shape a layer cannot take, naming the layer and the need.
inline void require_input(bool acceptable, const std::string& layer, const Shape& input,
                          const std::string& need) {
    if (!acceptable) {
        throw InputShapeError(layer + " cannot take input " + input.to_string() + ": " + need);
    }
}

}  // namespace trainscope::workloads
