#include "reports/trace/StoredChromeTrace.hpp"

#include "profiler/formats/ChromeTraceWriter.hpp"
#include "reports/store/LaunchFlowStream.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {

std::int64_t write_stored_chrome_trace(const ResultsDatabase& db, std::int64_t run_id,
                                       const profiler::Trace& header, std::ostream& out) {
    profiler::ChromeTraceWriter writer(header, out);
    std::int64_t written = 0;
    scan_activities(db, run_id, header, [&](const profiler::Activity& a, std::size_t) {
        writer.write_activity(a);
        ++written;
        return true;
    });
    LaunchFlowStream flows(db, run_id);
    profiler::FlowEnd launch;
    profiler::FlowEnd work;
    while (flows.next(launch, work))
        writer.write_flow(launch, work);
    writer.finish();
    return written;
}

}  // namespace trainscope::reports
