#include "profiler/nvml/NvmlError.hpp"

namespace trainscope::profiler {

std::string describe_nvml_status(int status, const char* (*error_string)(int)) {
    const char* text = error_string != nullptr ? error_string(status) : nullptr;
    return std::string(text != nullptr ? text : "unknown error") + " (NVML code " +
           std::to_string(status) + ")";
}

void throw_nvml_error(int status, const char* (*error_string)(int), const char* call,
                      const char* file, int line) {
    std::string nvml_text = describe_nvml_status(status, error_string);
    // Built before nvml_text is moved into the exception (argument order is unspecified).
    const std::string message =
        std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " + nvml_text;
    throw NvmlError(message, status, std::move(nvml_text));
}

}  // namespace trainscope::profiler
