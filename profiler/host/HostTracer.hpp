#pragma once

#include <cstdint>
#include <string>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

struct HostTracerOptions {
    // Ranges pushed in this NVTX domain record host work (ActivityKind::HostOp, on the
    // thread's host lane); all others are NVTX ranges on the thread's NVTX lane. A
    // 64-bit payload on such a range is the op's FLOPs and minimum bytes
    // (common/OpWorkPayload.hpp), kept as Activity::flops and Activity::bytes.
    std::string host_op_domain = "trainscope.ops";
    // Also HostOp: ranges with this NVTX category (0 = no category means HostOp).
    std::uint32_t host_op_category = 0;
    // Start/end ranges in this domain are collectives the process issued (the MPI
    // communicator's all-reduces): message = the kind ("all_reduce", as
    // collective_kind_from_string reads it), 64-bit payload = bytes, category = the
    // collective's sequence number + 1 (0: unknown, counted here in start order). They
    // become ActivityKind::Collective on the starting thread's communication lane and a
    // Trace::collectives entry of rank 0, group size unknown (0): a multi-rank harness
    // stamps both (mark_trace_rank).
    std::string collective_domain = "trainscope.comm";
};

// Records the NVTX push/pop and start/end ranges this process makes while it runs (any thread, any
// domain, nvtx3::scoped_range_in or the C API), timed with host_clock_now_ns(). It works
// through NVTX's in-process static injection, which needs no environment variable: see
// docs/profiler.md. If NVTX_INJECTION64_PATH names another tool, NVTX hands its calls to
// that tool instead and injection_attached() stays false. One tracer at a time.
class HostTracer {
  public:
    explicit HostTracer(HostTracerOptions options = {});
    ~HostTracer();
    HostTracer(const HostTracer&) = delete;
    HostTracer& operator=(const HostTracer&) = delete;

    // Ends recording; the trace's base_ns is the start time, capture window = lifetime.
    // Ranges still open are not included.
    Trace stop();

    // True once NVTX has initialised and handed its entry points to this library
    // (it does so at the first NVTX call of the process).
    static bool injection_attached();

  private:
    HostTracerOptions options_;
    std::int64_t start_ns_ = 0;
    bool running_ = false;
};

}  // namespace trainscope::profiler
