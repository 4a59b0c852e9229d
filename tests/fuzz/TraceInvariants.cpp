#include "tests/fuzz/TraceInvariants.hpp"

#include <cstdio>
#include <cstdlib>

namespace trainscope::fuzz {

namespace {

[[noreturn]] void broken(const char* what, std::size_t index) {
    std::fprintf(stderr, "fuzz: trace invariant broken: %s (at %zu)\n", what, index);
    std::abort();
}

}  // namespace

void check_trace_invariants(const profiler::Trace& trace) {
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const profiler::Activity& a = trace.activities[i];
        if (a.lane >= trace.lanes.size())
            broken("activity on a lane that does not exist", i);
        if (a.name >= trace.strings.size())
            broken("activity name id outside the string table", i);
    }
}

}  // namespace trainscope::fuzz
