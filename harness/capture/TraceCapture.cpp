#include "harness/capture/TraceCapture.hpp"

#include "profiler/trace/TraceMerge.hpp"
#if defined(TRAINSCOPE_HAS_HOST_TRACER)
#include "profiler/host/HostTracer.hpp"
#endif
#if defined(TRAINSCOPE_HAS_CUPTI)
#include "profiler/cupti/CuptiModuleApi.hpp"
#include "workloads/devices/CudaModule.hpp"
#endif

namespace trainscope::harness {

TraceCapture::TraceCapture(profiler::TraceLevel level, bool cuda) : level_(level) {
    (void)cuda;  // unused in a build without CUPTI
    if (level_ == profiler::TraceLevel::Off)
        return;
#if defined(TRAINSCOPE_HAS_HOST_TRACER)
    host_ = std::make_unique<profiler::HostTracer>();
#endif
#if defined(TRAINSCOPE_HAS_CUPTI)
    if (cuda) {
        // CUPTI is the CUDA module's, loaded here if the cell has not made its backend yet.
        cupti_ =
            workloads::cuda_module_api<profiler::CuptiModuleApi>(profiler::kCuptiModuleApiSymbol)
                .start_tracer(level_);
    }
#endif
}

TraceCapture::~TraceCapture() = default;

std::optional<profiler::Trace> TraceCapture::stop(std::vector<std::string>& warnings) {
    (void)warnings;  // only a build without the host tracer has something to say
    if (level_ == profiler::TraceLevel::Off)
        return std::nullopt;
    profiler::Trace trace;
    bool have_trace = false;
#if defined(TRAINSCOPE_HAS_CUPTI)
    if (cupti_) {
        trace = cupti_->stop();
        have_trace = true;
    }
#endif
#if defined(TRAINSCOPE_HAS_HOST_TRACER)
    if (host_) {
        // NVTX phase ranges stay at level kernels too: a handful per step, and without
        // them no view can say which step or phase a kernel belongs to.
        profiler::Trace host = host_->stop();
        if (have_trace) {
            profiler::merge_trace_into(trace, host);
        } else {
            trace = std::move(host);
            have_trace = true;
        }
    }
#else
    warnings.push_back("host tracing needs the NVTX 3 headers, which this build lacks");
#endif
    if (!have_trace)
        return std::nullopt;
    return trace;
}

}  // namespace trainscope::harness
