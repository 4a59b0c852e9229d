#pragma once

#include <memory>

#include "profiler/capture/TraceLevel.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// A running capture of the GPU's activity, seen from outside the CUDA module: the CUPTI
// tracer (CuptiTracer) behind an interface whose code is the module's, so the program that
// starts one links no CUPTI.
class DeviceTracer {
  public:
    virtual ~DeviceTracer() = default;
    // Ends the capture and returns everything recorded (CuptiTracer::stop). Call once.
    virtual Trace stop() = 0;
};

// What the CUDA module (libtrainscope_cuda.so, loaded by workloads' CudaModule) offers
// the profiler's callers. Includes no CUDA header.
struct CuptiModuleApi {
    // Starts recording at `level` with CuptiTracer's default options.
    std::unique_ptr<DeviceTracer> (*start_tracer)(TraceLevel level);
};

inline constexpr char kCuptiModuleApiSymbol[] = "trainscope_cupti_module_api";

}  // namespace trainscope::profiler

// The module's entry point (defined in CuptiModuleEntry.cpp, found with dlsym).
extern "C" const trainscope::profiler::CuptiModuleApi* trainscope_cupti_module_api();
