#pragma once

#include <filesystem>
#include <ostream>

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
//    id) for every GPU activity whose launch is in the trace.
// Times are µs relative to the trace's t = 0, written as exact decimals with ns
// precision ("12.345"); base_ns goes into "otherData". The file is written to
// `<file>.tmp` and renamed, so a reader never sees half a trace.
void write_chrome_trace(const Trace& trace, const std::filesystem::path& file);
void write_chrome_trace(const Trace& trace, std::ostream& out);

}  // namespace trainscope::profiler
