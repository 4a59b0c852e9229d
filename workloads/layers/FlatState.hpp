#pragma once

#include <vector>

#include "workloads/layers/Parameter.hpp"
#include "workloads/layers/StepContext.hpp"

namespace trainscope::workloads {

// A model's non-trainable state (batch norm's running statistics) in one flat buffer of
// the master dtype, as FlatParameters holds the parameters: each StateBuffer's value is a
// view at an offset that is a multiple of kParameterAlignmentBytes, the padding between
// views is zero. Made with one allocation and set to every buffer's initial value with one
// host copy whatever the number of buffers, and a copy or cast of the whole state is one
// operation on values().
class FlatState {
  public:
    FlatState() = default;
    // Lays the buffers out, allocates, points each StateBuffer's value at its view and
    // uploads the initial values (one copy_from_host).
    FlatState(const std::vector<StateBuffer*>& buffers, StepContext& context);

    // The whole state, padding included; empty without buffers.
    const Tensor& values() const { return values_; }
    // Where buffers[i] starts in values(), in elements.
    std::int64_t offset(std::size_t i) const { return offsets_[i]; }

  private:
    std::vector<std::int64_t> offsets_;
    Tensor values_;
};

}  // namespace trainscope::workloads
