#pragma once

#include <cupti.h>

#include <stdexcept>
#include <string>

namespace trainscope::profiler {

// A failed CUPTI call: the message carries the call text, file:line, CUPTI's own
// result string and the numeric code.
class CuptiError : public std::runtime_error {
  public:
    CuptiError(const std::string& message, CUptiResult code)
        : std::runtime_error(message), code_(code) {}
    [[nodiscard]] CUptiResult code() const { return code_; }

  private:
    CUptiResult code_;
};

std::string describe_cupti_failure(CUptiResult status, const char* call, const char* file,
                                   int line);
[[noreturn]] void throw_cupti_error(CUptiResult status, const char* call, const char* file,
                                    int line);
// For destructors and CUPTI callbacks, which must not throw: writes the description to
// stderr and returns whether the call succeeded.
bool log_cupti_error(CUptiResult status, const char* call, const char* file, int line) noexcept;

}  // namespace trainscope::profiler

#define TRAINSCOPE_CUPTI_CHECK(call)                                                             \
    do {                                                                                         \
        const CUptiResult trainscope_cupti_status_ = (call);                                     \
        if (trainscope_cupti_status_ != CUPTI_SUCCESS) {                                         \
            ::trainscope::profiler::throw_cupti_error(trainscope_cupti_status_, #call, __FILE__, \
                                                      __LINE__);                                 \
        }                                                                                        \
    } while (false)

// Evaluates to true when the call succeeded; logs and evaluates to false otherwise.
#define TRAINSCOPE_CUPTI_CHECK_NOEXCEPT(call) \
    ::trainscope::profiler::log_cupti_error((call), #call, __FILE__, __LINE__)
