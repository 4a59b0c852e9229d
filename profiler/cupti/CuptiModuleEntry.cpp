// The CUDA module's profiler entry point: the CUPTI tracer behind DeviceTracer
// (CuptiModuleApi.hpp). Compiled into libtrainscope_cuda.so only.
#include <memory>

#include "profiler/cupti/CuptiModuleApi.hpp"
#include "profiler/cupti/CuptiTracer.hpp"

namespace trainscope::profiler {
namespace {

CuptiTracerOptions options_at(TraceLevel level) {
    CuptiTracerOptions options;
    options.level = level;
    return options;
}

class CuptiDeviceTracer final : public DeviceTracer {
  public:
    explicit CuptiDeviceTracer(TraceLevel level) : tracer_(options_at(level)) {}
    Trace stop() override { return tracer_.stop(); }

  private:
    CuptiTracer tracer_;
};

std::unique_ptr<DeviceTracer> start_tracer(TraceLevel level) {
    return std::make_unique<CuptiDeviceTracer>(level);
}

constexpr CuptiModuleApi kApi{&start_tracer};

}  // namespace
}  // namespace trainscope::profiler

extern "C" const trainscope::profiler::CuptiModuleApi* trainscope_cupti_module_api() {
    return &trainscope::profiler::kApi;
}
