#pragma once

#include <cupti.h>

#include "common/LibraryError.hpp"

namespace trainscope::profiler {

// A failed CUPTI call (common/LibraryError.hpp): call text, file:line, CUPTI's own result
// string and the numeric code.
class CuptiError : public LibraryError {
  public:
    CuptiError(const char* file, int line, const char* call, CUptiResult status);
    [[nodiscard]] CUptiResult result() const { return static_cast<CUptiResult>(code()); }
};

[[noreturn]] void throw_cupti_error(const char* file, int line, const char* call,
                                    CUptiResult status);
// For destructors and CUPTI callbacks, which must not throw: writes the description to
// stderr and returns whether the call succeeded.
bool log_cupti_error(const char* file, int line, const char* call, CUptiResult status) noexcept;

}  // namespace trainscope::profiler

#define TS_CUPTI_CHECK(call)                                                                  \
    do {                                                                                      \
        const CUptiResult ts_status_ = (call);                                                \
        if (ts_status_ != CUPTI_SUCCESS) {                                                    \
            ::trainscope::profiler::throw_cupti_error(__FILE__, __LINE__, #call, ts_status_); \
        }                                                                                     \
    } while (false)

// Evaluates to true when the call succeeded; logs and evaluates to false otherwise.
#define TS_CUPTI_CHECK_NOEXCEPT(call) \
    ::trainscope::profiler::log_cupti_error(__FILE__, __LINE__, #call, (call))
