#pragma once

#include <string>

#include "common/LibraryError.hpp"

namespace trainscope::profiler {

// nvmlErrorString as a loaded library's function table holds it (may be null).
using NvmlErrorString = const char* (*)(int);

// NVML is loaded with dlopen, so its words for a status come from the library in use:
// NvmlLibrary names its nvmlErrorString here when it opens and takes it back when it
// closes, and every NvmlError reads it (nvmlErrorString is a pure code -> text table).
// Process-wide under a lock, not per thread: the sampler's thread checks calls too.
// A table built by hand (tests) names its own. `error_string` may be null. Counted: each
// use is matched by one forget, and the newest one still held answers.
void use_nvml_error_string(NvmlErrorString error_string) noexcept;
// Takes back one use of `error_string` (a library about to be closed); once no holder
// is left, a later NvmlError says "unknown error" (or the words of an older library still
// open) instead of calling into an unloaded library.
void forget_nvml_error_string(NvmlErrorString error_string) noexcept;

// A failed NVML call (common/LibraryError.hpp): call text, file:line, NVML's own error
// string and the numeric code.
class NvmlError : public LibraryError {
  public:
    NvmlError(const char* file, int line, const char* call, int status);
    // NVML's own words and the code, e.g. "Not Found (NVML code 6)".
    [[nodiscard]] std::string nvml_text() const;
};

// NVML's text for a status and its code, e.g. "Not Found (NVML code 6)".
std::string describe_nvml_status(int status);
[[noreturn]] void throw_nvml_error(const char* file, int line, const char* call, int status);
// For destructors: logs a failure to stderr and returns whether the call succeeded.
bool log_nvml_error(const char* file, int line, const char* call, int status) noexcept;

}  // namespace trainscope::profiler

// Throws NvmlError unless `call` returns NVML_SUCCESS (0); the words are those of the
// NVML in use (use_nvml_error_string). Telemetry never fails a run: the sampler catches
// it at its boundary and records why it has no counters. Metric reads in the sampling
// loop are not checked with it: a metric a GPU does not support answers NOT_SUPPORTED
// every time, which only means "no value".
#define TS_NVML_CHECK(call)                                                                  \
    do {                                                                                     \
        const int ts_status_ = (call);                                                       \
        if (ts_status_ != 0) {                                                               \
            ::trainscope::profiler::throw_nvml_error(__FILE__, __LINE__, #call, ts_status_); \
        }                                                                                    \
    } while (false)

// Evaluates to true when the call succeeded; logs and evaluates to false otherwise.
#define TS_NVML_CHECK_NOEXCEPT(call) \
    ::trainscope::profiler::log_nvml_error(__FILE__, __LINE__, #call, (call))
