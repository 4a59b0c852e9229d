#pragma once

#include <string>

#include "common/LibraryError.hpp"

namespace trainscope::profiler {

// nvmlErrorString as the loaded library's function table holds it (may be null). NVML is
// loaded with dlopen, so its words come from that table, which the check macro takes as
// its first argument.
using NvmlErrorString = const char* (*)(int);

// A failed NVML call (common/LibraryError.hpp): call text, file:line, NVML's own error
// string and the numeric code.
class NvmlError : public LibraryError {
  public:
    NvmlError(const char* file, int line, const char* call, int status,
              NvmlErrorString error_string);
    // NVML's own words and the code, e.g. "Not Found (NVML code 6)".
    [[nodiscard]] std::string nvml_text() const;
};

// NVML's text for a status and its code, e.g. "Not Found (NVML code 6)".
std::string describe_nvml_status(int status, NvmlErrorString error_string);
[[noreturn]] void throw_nvml_error(const char* file, int line, const char* call, int status,
                                   NvmlErrorString error_string);
// For destructors: logs a failure to stderr and returns whether the call succeeded.
bool log_nvml_error(const char* file, int line, const char* call, int status,
                    NvmlErrorString error_string) noexcept;

}  // namespace trainscope::profiler

// Throws NvmlError unless `call` returns NVML_SUCCESS (0). Telemetry never fails a run:
// the sampler catches it at its boundary and records why it has no counters. Metric
// reads in the sampling loop are not checked with it: a metric a GPU does not support
// answers NOT_SUPPORTED every time, which only means "no value".
#define TS_NVML_CHECK(error_string, call)                                                   \
    do {                                                                                    \
        const int ts_status_ = (call);                                                      \
        if (ts_status_ != 0) {                                                              \
            ::trainscope::profiler::throw_nvml_error(__FILE__, __LINE__, #call, ts_status_, \
                                                     (error_string));                       \
        }                                                                                   \
    } while (false)

// Evaluates to true when the call succeeded; logs and evaluates to false otherwise.
#define TS_NVML_CHECK_NOEXCEPT(error_string, call) \
    ::trainscope::profiler::log_nvml_error(__FILE__, __LINE__, #call, (call), (error_string))
