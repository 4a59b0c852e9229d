#pragma once

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Adds `from` to `into`, for captures recorded side by side on the one host clock
// (CuptiTracer + HostTracer + NvmlSampler counters): times move by
// from.base_ns - into.base_ns, lanes with the same identity (kind, device,
// stream/thread, process, rank) are shared, strings re-interned, counters and collectives
// appended, the world size the larger of the two, dropped
// records summed, the capture window becomes the union, metadata keys already in
// `into` are kept. The result is sorted by lane and time, with nesting depths assigned
// anew (assign_nesting_depths): a shared lane nests both sources' intervals.
void merge_trace_into(Trace& into, const Trace& from);

}  // namespace trainscope::profiler
