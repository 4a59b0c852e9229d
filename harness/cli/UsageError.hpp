#pragma once

#include <stdexcept>

namespace trainscope::harness {

// Bad command-line or matrix input: printed as one line, exit code 2, nothing written.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace trainscope::harness
