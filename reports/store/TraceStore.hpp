#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "profiler/trace/Trace.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// Writes a run's trace tables (strings, lanes, activities, counters). Call inside the
// run's transaction.
void write_trace(const ResultsDatabase& db, std::int64_t run_id, const profiler::Trace& trace);

// Loads a run's trace; nullopt when the run has none.
std::optional<profiler::Trace> load_trace(const ResultsDatabase& db, std::int64_t run_id);

// The ok runs whose trace holds at least one activity, by id: what a timeline can show.
std::vector<std::int64_t> traced_run_ids(const ResultsDatabase& db);

}  // namespace trainscope::reports
