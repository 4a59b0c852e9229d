#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Writes the trace as Chrome trace-event JSON, which Perfetto and chrome://tracing open:
//  - one process per host process and per GPU ("GPU n"), one thread per lane, named by
//    process_name / thread_name metadata events (sorted GPU lanes first);
//  - an "X" event per activity, with Kineto's category names (kernel, gpu_memcpy,
//    gpu_memset, cuda_runtime, cuda_driver, user_annotation, cpu_op, cuda_sync,
//    overhead) and args (device, stream, correlation, grid, block, registers per thread,
//    shared memory, bytes, copy kind, depth), so import_kineto_trace reads it back;
//  - a flow ("s" at the launching API call, "f" with "bp":"e" at the GPU work, shared
//    id) for every GPU activity whose launch is in the trace (LaunchIndex's rule).
// Times are µs relative to the trace's t = 0, written as exact decimals with ns
// precision ("12.345"); base_ns goes into "otherData". The file is written to
// `<file>.tmp` and renamed, so a reader never sees half a trace.
void write_chrome_trace(const Trace& trace, const std::filesystem::path& file);
void write_chrome_trace(const Trace& trace, std::ostream& out);

// Where a flow starts or ends: the lane and start of the launching API call, or of the
// GPU work it launched.
struct FlowEnd {
    LaneId lane = 0;
    std::int64_t start_ns = 0;
};

// The writer behind write_chrome_trace, for a trace whose activities pass one at a time
// (`trainscope export` reads a stored run's rows in trace order and never holds them):
// construct it (the document's head and the lanes' metadata), give it every activity in
// trace order, then every flow in the trace order of its GPU work, then finish(). The
// bytes are write_chrome_trace's for the same trace: that function is this class fed
// from trace.activities and a LaunchIndex.
class ChromeTraceWriter {
  public:
    // `header`: the trace's clock, metadata, lanes and names; its activities are not
    // read. It must outlive the writer, and so must `out`.
    ChromeTraceWriter(const Trace& header, std::ostream& out);

    void write_activity(const Activity& a);
    void write_flow(FlowEnd launch, FlowEnd work);
    // Closes the document and writes what is buffered; nothing may be written after it.
    // Until then `out` has only the pieces written so far.
    void finish();

  private:
    struct LaneIds {
        std::int64_t pid = 0;
        std::int64_t tid = 0;
    };

    // Starts an event in the buffer (its separator from the one before).
    std::string& begin_event();
    void write_args(const Activity& a);
    const std::string& quoted_name(StringId name);
    // "pid":P,"tid":T of a lane's track.
    void append_lane_ids(LaneIds ids);
    // Hands the buffer to `out` once it holds kFlushBytes, and at finish().
    void flush_when_full();

    const Trace& header_;
    std::ostream& out_;
    // The document is formatted here and written to `out` in pieces of about 1 MiB: an
    // ostream insertion per field (its sentry, locale and virtual calls) was a fifth of a
    // huge export's time.
    std::string buffer_;
    // Per lane, computed once: the lookup walks the lanes for a job's host processes.
    std::vector<LaneIds> lane_ids_;
    // Each name's JSON text, made the first time it is written: names repeat millions of
    // times in a long trace.
    std::vector<std::string> quoted_names_;
    bool first_event_ = true;
    std::uint64_t flow_id_ = 0;
};

}  // namespace trainscope::profiler
