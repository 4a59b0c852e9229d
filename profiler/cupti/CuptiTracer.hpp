#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>

#include "profiler/capture/TraceLevel.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

namespace detail {
class CuptiBufferQueue;
}
class CuptiActivityDecoder;

struct CuptiTracerOptions {
    TraceLevel level = TraceLevel::Full;
    std::size_t buffer_bytes = 8u << 20;  // per CUPTI activity buffer
    std::size_t max_buffers = 32;         // outstanding at once (256 MB); beyond: dropped
    // A background thread decodes and recycles completed buffers this often, so a long
    // run never runs out of buffers (zero: only stop() decodes).
    std::chrono::milliseconds drain_period{250};
};

// Live capture of GPU activity through CUPTI's activity API, for one process; one
// tracer at a time (CUPTI's callbacks are process-wide). The constructor registers
// the timestamp callback (host_clock_now_ns, before any kind is enabled), the buffer
// callbacks, and enables: kernels (concurrent), memcpy, memset; at level full also
// runtime and driver API, synchronization, overhead, NVTX markers (only delivered when
// NVTX is injected into CUPTI), device and context records. Thread ids are the
// system's (gettid), as the host tracer's, so API calls and NVTX ranges share lanes.
// Completed buffers are decoded on a background thread every drain_period. stop()
// disables the kinds, flushes with CUPTI_ACTIVITY_FLAG_FLUSH_FORCED (never under the
// queue lock; the caller synchronizes the device first: the flush does not), decodes
// and returns the trace. The destructor stops a running capture and never throws.
class CuptiTracer {
  public:
    explicit CuptiTracer(CuptiTracerOptions options = {});
    ~CuptiTracer();
    CuptiTracer(const CuptiTracer&) = delete;
    CuptiTracer& operator=(const CuptiTracer&) = delete;
    CuptiTracer(CuptiTracer&&) = delete;
    CuptiTracer& operator=(CuptiTracer&&) = delete;

    // Decodes the buffers CUPTI has completed so far and frees them (call between
    // steps of a long run to keep memory bounded).
    void drain();
    // Ends the capture and returns everything recorded. Call once.
    Trace stop();

  private:
    void disable_kinds() noexcept;
    void drain_periodically();
    void stop_drainer() noexcept;

    CuptiTracerOptions options_;
    std::unique_ptr<detail::CuptiBufferQueue> queue_;
    Trace trace_;
    std::unique_ptr<CuptiActivityDecoder> decoder_;
    bool running_ = false;
    std::mutex decode_mutex_;  // the decoder and trace_, shared with the drainer
    std::mutex drainer_mutex_;
    std::condition_variable drainer_wake_;
    bool drainer_stop_ = false;
    std::thread drainer_;
};

}  // namespace trainscope::profiler
