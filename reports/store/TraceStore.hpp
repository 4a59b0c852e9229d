#pragma once

#include <cstdint>
#include <optional>

#include "profiler/trace/Trace.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// Writes a run's trace tables (strings, lanes, activities, counters). Call inside the
// run's transaction.
void write_trace(const ResultsDatabase& db, std::int64_t run_id, const profiler::Trace& trace);

// Loads a run's trace; nullopt when the run has none.
std::optional<profiler::Trace> load_trace(const ResultsDatabase& db, std::int64_t run_id);

}  // namespace trainscope::reports
