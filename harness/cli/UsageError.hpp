#pragma once

#include "common/InputError.hpp"

namespace trainscope::harness {

// Bad command-line or matrix input: printed as one line, exit code 2, nothing written.
class UsageError : public InputError {
  public:
    using InputError::InputError;
};

}  // namespace trainscope::harness
