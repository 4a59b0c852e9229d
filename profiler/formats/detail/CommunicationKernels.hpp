#pragma once

#include <cstdint>
#include <unordered_set>

#include "profiler/analysis/CommunicationNames.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler::detail {

// The communication kernels of a trace whose activities pass once, as the collective joins
// of every format need them: which names are communication (classify_kernel, asked once
// per name) and the correlation ids that launched such a kernel, noted while the file is
// read so that the launches, which come first in trace order, can be recognised.
class CommunicationKernels {
  public:
    bool is_communication(StringId name, const StringTable& strings) {
        return names_.is_communication(name, strings);
    }
    // Every kernel, while the file is read.
    void note_kernel(const Activity& kernel, const StringTable& strings);
    // While the activities pass: a kernel of a communication name; an API call (runtime
    // or driver) whose id launched one.
    bool is_communication_kernel(const Activity& a, const StringTable& strings) {
        return a.kind == ActivityKind::Kernel && is_communication(a.name, strings);
    }
    [[nodiscard]] bool launches_communication(const Activity& a) const {
        return a.correlation != 0 &&
               (a.kind == ActivityKind::RuntimeApi || a.kind == ActivityKind::DriverApi) &&
               launched_by_.count(a.correlation) != 0;
    }

  private:
    CommunicationNames names_;
    std::unordered_set<std::uint64_t> launched_by_;  // correlations of communication kernels
};

}  // namespace trainscope::profiler::detail
