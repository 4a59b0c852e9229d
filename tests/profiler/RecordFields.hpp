#pragma once

#include <tuple>

#include "profiler/trace/Activity.hpp"
#include "profiler/trace/Collective.hpp"
#include "profiler/trace/Lane.hpp"

namespace trainscope::profiler {

// Every stored field of a record as a tuple, so that two imports of the same trace compare
// field by field and a failure prints which record differs.
inline auto fields(const Activity& a) {
    return std::make_tuple(a.start_ns, a.end_ns, a.correlation, a.bytes, a.lane, a.name, a.kind,
                           a.copy_kind, a.depth, a.grid, a.block, a.registers_per_thread,
                           a.shared_memory_bytes, a.graph_id, a.device, a.flops);
}

inline auto fields(const CollectiveCall& c) {
    return std::make_tuple(c.rank, c.kind, c.lane, c.start_ns, c.end_ns, c.sequence, c.elements,
                           c.bytes, c.group_size, c.group, c.dtype);
}

inline auto fields(const Lane& l) {
    return std::make_tuple(l.kind, l.device, l.stream_or_thread, l.process, l.name, l.rank);
}

}  // namespace trainscope::profiler
