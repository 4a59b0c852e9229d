#include "harness/cli/RunTraceLoader.hpp"

#include <fmt/format.h>

#include "harness/cli/UsageError.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::harness {

namespace {

profiler::Trace traced(std::optional<profiler::Trace> trace, const std::string& database,
                       std::int64_t run_id) {
    if (!trace) {
        throw UsageError(
            fmt::format("run {} in '{}' has no trace: record one with `trainscope run "
                        "--trace kernels|full`, or import one with `trainscope import`",
                        run_id, database));
    }
    return std::move(*trace);
}

void check_run(const reports::ResultsDatabase& db, std::int64_t run_id) {
    reports::load_run(db, run_id,
                      reports::RunParts{false, false, false, false, false});  // names a missing run
}

}  // namespace

profiler::Trace load_run_trace(const std::string& database, std::int64_t run_id) {
    const reports::ResultsDatabase db(database, reports::OpenMode::ReadOnly);
    check_run(db, run_id);
    return traced(reports::load_trace(db, run_id), database, run_id);
}

profiler::Trace load_run_trace_header(const reports::ResultsDatabase& db,
                                      const std::string& database, std::int64_t run_id) {
    check_run(db, run_id);
    return traced(reports::load_trace_header(db, run_id), database, run_id);
}

}  // namespace trainscope::harness
