#pragma once

#include <filesystem>
#include <string>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler::testing {

// Path of a trace recorded by others, under ../shared/traces.
std::filesystem::path shared_trace_path(const std::string& relative);

// Imports a Kineto fixture once per test process (the V100 trace is 35 MB of JSON).
const Trace& kineto_fixture(const std::string& stem);

// Sum of durations and count of the activities of one kind.
struct KindTotals {
    std::int64_t count = 0;
    std::int64_t duration_ns = 0;
    std::int64_t bytes = 0;
};
KindTotals totals_of(const Trace& trace, ActivityKind kind);

}  // namespace trainscope::profiler::testing
