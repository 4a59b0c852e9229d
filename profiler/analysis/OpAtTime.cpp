#include "profiler/analysis/OpAtTime.hpp"

#include <limits>

namespace trainscope::profiler {

OpAtTime op_at_time(const Trace& trace, std::int64_t t_ns) {
    const Activity* phase = nullptr;
    const Activity* covering_op = nullptr;
    for (const Activity& a : trace.activities) {
        if (a.start_ns > t_ns || a.end_ns < t_ns)
            continue;
        if (a.kind == ActivityKind::NvtxRange && (phase == nullptr || a.depth > phase->depth))
            phase = &a;
        if (a.kind == ActivityKind::HostOp &&
            (covering_op == nullptr || a.depth > covering_op->depth))
            covering_op = &a;
    }
    const Activity* op = covering_op;
    if (op == nullptr) {
        const std::int64_t until =
            phase != nullptr ? phase->end_ns : std::numeric_limits<std::int64_t>::max();
        for (const Activity& a : trace.activities) {
            if (a.kind != ActivityKind::HostOp || a.start_ns < t_ns || a.start_ns > until)
                continue;
            if (op == nullptr || a.start_ns < op->start_ns ||
                (a.start_ns == op->start_ns && a.depth < op->depth))
                op = &a;
        }
    }
    OpAtTime found;
    if (phase != nullptr)
        found.phase = std::string(trace.strings.at(phase->name));
    if (op != nullptr)
        found.op = std::string(trace.strings.at(op->name));
    return found;
}

}  // namespace trainscope::profiler
