#include "harness/cli/RunTraceLoader.hpp"

#include <fmt/format.h>

#include "harness/cli/UsageError.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::harness {

profiler::Trace load_run_trace(const std::string& database, std::int64_t run_id) {
    const reports::ResultsDatabase db(database, reports::OpenMode::ReadOnly);
    reports::load_run(db, run_id,
                      reports::RunParts{false, false, false, false, false});  // names a missing run
    auto trace = reports::load_trace(db, run_id);
    if (!trace) {
        throw UsageError(
            fmt::format("run {} in '{}' has no trace: record one with `trainscope run "
                        "--trace kernels|full`, or import one with `trainscope import`",
                        run_id, database));
    }
    return std::move(*trace);
}

}  // namespace trainscope::harness
