#include "profiler/cupti/CuptiError.hpp"

namespace trainscope::profiler {

namespace {
constexpr const char* kCupti = "CUPTI";

const char* cupti_text(CUptiResult status) noexcept {
    const char* text = nullptr;
    if (cuptiGetResultString(status, &text) != CUPTI_SUCCESS || text == nullptr)
        return "unknown CUPTI result";
    return text;
}
}  // namespace

CuptiError::CuptiError(const char* file, int line, const char* call, CUptiResult status)
    : LibraryError(kCupti, file, line, call, cupti_text(status), static_cast<int>(status)) {}

void throw_cupti_error(const char* file, int line, const char* call, CUptiResult status) {
    throw CuptiError(file, line, call, status);
}

bool log_cupti_error(const char* file, int line, const char* call, CUptiResult status) noexcept {
    return status == CUPTI_SUCCESS ||
           log_library_failure(kCupti, file, line, call, cupti_text(status),
                               static_cast<int>(status));
}

}  // namespace trainscope::profiler
