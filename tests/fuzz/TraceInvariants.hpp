#pragma once

#include "profiler/trace/Trace.hpp"

namespace trainscope::fuzz {

// Aborts with a message when a trace breaks what every consumer of the model indexes
// by without checking (the store, the analyses, the GUI): each activity's lane and name
// exist.
void check_trace_invariants(const profiler::Trace& trace);

}  // namespace trainscope::fuzz
