#pragma once

#include <string>

#include "common/InputError.hpp"

namespace trainscope::workloads {

// Bad user input to a training run: an unknown model, a parameter out of range, a
// missing dataset file. The message names the input and the fix; the CLI prints it
// and exits with code 2.
class ConfigError : public InputError {
  public:
    using InputError::InputError;
};

}  // namespace trainscope::workloads
