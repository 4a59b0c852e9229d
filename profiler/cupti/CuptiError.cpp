#include "profiler/cupti/CuptiError.hpp"

#include <cstdio>

namespace trainscope::profiler {

std::string describe_cupti_failure(CUptiResult status, const char* call, const char* file,
                                   int line) {
    const char* text = nullptr;
    if (cuptiGetResultString(status, &text) != CUPTI_SUCCESS || text == nullptr)
        text = "unknown CUPTI result";
    return std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " + text +
           " (CUPTI code " + std::to_string(static_cast<int>(status)) + ")";
}

void throw_cupti_error(CUptiResult status, const char* call, const char* file, int line) {
    throw CuptiError(describe_cupti_failure(status, call, file, line), status);
}

bool log_cupti_error(CUptiResult status, const char* call, const char* file, int line) noexcept {
    if (status == CUPTI_SUCCESS)
        return true;
    try {
        const std::string message = describe_cupti_failure(status, call, file, line);
        std::fprintf(stderr, "trainscope profiler: %s\n", message.c_str());
    } catch (...) {
        std::fprintf(stderr, "trainscope profiler: %s failed (CUPTI code %d)\n", call,
                     static_cast<int>(status));
    }
    return false;
}

}  // namespace trainscope::profiler
