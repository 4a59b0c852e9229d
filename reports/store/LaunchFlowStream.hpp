#pragma once

#include <cstdint>
#include <optional>

#include "profiler/formats/ChromeTraceWriter.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// A stored run's GPU work (kernels, memcpys, memsets) in trace order, each with the API
// call that launched it, by profiler::LaunchJoin's rule: the first runtime or driver call
// in trace order with the work's rank and correlation id (0 never joins); work without such
// a call is left out. The Chrome export's flows, without holding the run: SQLite joins the
// rows through a temporary table of the launches (rank, correlation, lane, start), the
// rank through the lanes table, that it keeps on
// disk (temp_store FILE, in SQLite's temporary folder: $SQLITE_TMPDIR, else $TMPDIR, else
// /var/tmp or /tmp), so memory stays at SQLite's page cache whatever the run's size.
// Reads through the caller's connection (so that the rows and their flows can come from
// one read snapshot: SqliteReadSnapshot), sets its temp_store to FILE, and drops the table
// when it ends.
class LaunchFlowStream {
  public:
    // StoreError when the run has no trace or SQLite's temporary folder cannot take the
    // launches (unwritable, full: the message names the folder); SqliteError for an
    // unreadable file.
    LaunchFlowStream(const ResultsDatabase& db, std::int64_t run_id);
    ~LaunchFlowStream();
    LaunchFlowStream(const LaunchFlowStream&) = delete;
    LaunchFlowStream& operator=(const LaunchFlowStream&) = delete;

    // The next GPU work item with a launch: where its launch and it start. False after the
    // last.
    bool next(profiler::FlowEnd& launch, profiler::FlowEnd& work);

  private:
    const ResultsDatabase& db_;
    std::optional<Statement> flows_;
};

}  // namespace trainscope::reports
