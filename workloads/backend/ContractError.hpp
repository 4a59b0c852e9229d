#pragma once

#include <stdexcept>

namespace trainscope::workloads {

// A Backend call whose arguments break the Backend contract: one layer handed another a
// tensor of the wrong shape, dtype or size. That is a bug in trainscope, not bad input (an
// input the model cannot take is refused when the model is built, as InputShapeError), so
// it is a logic_error and the CLI reports it as an internal error, not as "fix your input".
class ContractError : public std::logic_error {
  public:
    using std::logic_error::logic_error;
};

}  // namespace trainscope::workloads
