#pragma once

#include <cstdint>
#include <string>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// What the host was doing at one instant of a trace: the innermost NVTX range around it
// (a phase such as "forward") and the op (a HostOp activity: the ops the engine marks)
// running then. Memory is allocated just before the op that fills it, so when no op
// covers the instant the op is the first one to start at or after it, inside the same
// phase range when there is one. Empty strings where the trace has nothing to say.
struct OpAtTime {
    std::string phase;
    std::string op;
};

OpAtTime op_at_time(const Trace& trace, std::int64_t t_ns);

}  // namespace trainscope::profiler
