#include "profiler/capture/TraceLevel.hpp"

namespace trainscope::profiler {

std::optional<TraceLevel> parse_trace_level(std::string_view text) {
    if (text == "off")
        return TraceLevel::Off;
    if (text == "kernels")
        return TraceLevel::Kernels;
    if (text == "full")
        return TraceLevel::Full;
    return std::nullopt;
}

std::string_view to_string(TraceLevel level) {
    switch (level) {
        case TraceLevel::Off:
            return "off";
        case TraceLevel::Kernels:
            return "kernels";
        case TraceLevel::Full:
            return "full";
    }
    return "unknown";
}

}  // namespace trainscope::profiler
