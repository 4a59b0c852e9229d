#pragma once

#include <stdexcept>

namespace trainscope {

// Input the user can fix: a flag, a matrix or job file, a training configuration, a
// results database or a trace file that cannot be used as given. The message names the
// input and the fix; the CLI prints it as one line and exits with code 2. Subclasses say
// which layer found it: harness::UsageError, workloads::ConfigError, reports::StoreError,
// reports::PivotError, profiler::TraceFormatError, profiler::OutputFileError.
class InputError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace trainscope
