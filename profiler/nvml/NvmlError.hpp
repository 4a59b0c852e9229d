#pragma once

#include <stdexcept>
#include <string>

namespace trainscope::profiler {

// A failed NVML call: the message carries the call text, file:line, NVML's own error
// string and the numeric code. NVML is loaded with dlopen, so the error-string function
// comes from the loaded library's table.
class NvmlError : public std::runtime_error {
  public:
    NvmlError(const std::string& message, int code, std::string nvml_text)
        : std::runtime_error(message), code_(code), nvml_text_(std::move(nvml_text)) {}
    [[nodiscard]] int code() const { return code_; }
    // NVML's own words and the code, e.g. "Not Found (NVML code 6)".
    [[nodiscard]] const std::string& nvml_text() const { return nvml_text_; }

  private:
    int code_;
    std::string nvml_text_;
};

// NVML's text for a status through the library's nvmlErrorString (may be null).
std::string describe_nvml_status(int status, const char* (*error_string)(int));
[[noreturn]] void throw_nvml_error(int status, const char* (*error_string)(int), const char* call,
                                   const char* file, int line);

}  // namespace trainscope::profiler

// Throws NvmlError unless `call` returns NVML_SUCCESS (0). Telemetry never fails a run:
// the sampler catches it at its boundary and records why it has no counters. Metric
// reads in the sampling loop are not checked with it: a metric a GPU does not support
// answers NOT_SUPPORTED every time, which only means "no value".
#define TRAINSCOPE_NVML_CHECK(error_string, call)                                             \
    do {                                                                                      \
        const int trainscope_nvml_status_ = (call);                                           \
        if (trainscope_nvml_status_ != 0) {                                                   \
            ::trainscope::profiler::throw_nvml_error(trainscope_nvml_status_, (error_string), \
                                                     #call, __FILE__, __LINE__);              \
        }                                                                                     \
    } while (false)
