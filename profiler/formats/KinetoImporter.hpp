#pragma once

#include <filesystem>

#include "profiler/trace/ActivitySorter.hpp"
#include "profiler/trace/StreamedTrace.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Imports a PyTorch profiler (Kineto) JSON trace, plain or gzip-compressed (.json.gz).
// Both eras are read: PyTorch 2.x (fractional µs with ns resolution, categories kernel,
// gpu_memcpy, cuda_runtime, cpu_op, user_annotation, ...) and PyTorch 1.9 (integer µs,
// Kernel, Memcpy, Runtime, Operator, ...).
//  - kernels, memcpy, memset, cuda_sync -> GPU lanes (device, stream)
//  - runtime/driver calls, CPU ops, python functions -> host lanes (pid, tid)
//  - user annotations -> NvtxRange on an annotation lane per thread, with depth;
//    gpu_user_annotation -> NvtxRange on the device's annotation lane
// Times: µs text converted to integer ns exactly (nearest ns, ties away from zero);
// t = 0 is the first event; base_ns = that time + baseTimeNanoseconds, and
// source_clock_offset_ns = baseTimeNanoseconds. The "Trace" span is the capture window.
// Throws TraceFormatError naming the file on any unreadable input.
Trace import_kineto_trace(const std::filesystem::path& file);

using KinetoStreamOptions = StreamOptions;

// The same trace without holding its activities: they are sorted on disk in runs (a
// temporary file, when they do not fit one run) and pass once through
// stream_activities, which nests them and joins the collectives. Memory stays near the
// parser's batch and one run of activities whatever the file size.
StreamedTrace stream_kineto_trace(const std::filesystem::path& file,
                                  const KinetoStreamOptions& options = {});

}  // namespace trainscope::profiler
