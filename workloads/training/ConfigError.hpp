#pragma once

#include <stdexcept>
#include <string>

namespace trainscope::workloads {

// Bad user input to a training run: an unknown model, a parameter out of range, a
// missing dataset file. The message names the input and the fix; the CLI prints it
// and exits with code 2.
class ConfigError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace trainscope::workloads
