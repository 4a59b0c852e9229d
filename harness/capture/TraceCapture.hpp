#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "profiler/capture/TraceLevel.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {
class HostTracer;
class DeviceTracer;
}  // namespace trainscope::profiler

namespace trainscope::harness {

// The tracers of one capture at a trace level: the host tracer (NVTX ranges and the CPU
// backend's ops) and, on CUDA, CUPTI. Recording starts on construction; stop() merges
// what they recorded into one trace. A cell's capture holds one for the whole run; the
// tracing-overhead probe makes one per traced block of steps, which is why this is a
// class of its own. The tracers are process-wide: one TraceCapture at a time.
class TraceCapture {
  public:
    TraceCapture(profiler::TraceLevel level, bool cuda);
    ~TraceCapture();
    TraceCapture(const TraceCapture&) = delete;
    TraceCapture& operator=(const TraceCapture&) = delete;

    // nullopt at level off. What this build could not record is added to `warnings`.
    std::optional<profiler::Trace> stop(std::vector<std::string>& warnings);

  private:
    profiler::TraceLevel level_;
#if defined(TRAINSCOPE_HAS_HOST_TRACER)
    std::unique_ptr<profiler::HostTracer> host_;
#endif
#if defined(TRAINSCOPE_HAS_CUPTI)                    // a CPU-only build has no CUPTI tracer to own
    std::unique_ptr<profiler::DeviceTracer> cupti_;  // the CUDA module's CUPTI tracer
#endif
};

}  // namespace trainscope::harness
