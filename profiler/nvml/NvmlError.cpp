#include "profiler/nvml/NvmlError.hpp"

namespace trainscope::profiler {

namespace {
constexpr const char* kNvml = "NVML";

const char* nvml_words(int status, NvmlErrorString error_string) noexcept {
    const char* text = error_string != nullptr ? error_string(status) : nullptr;
    return text != nullptr ? text : "unknown error";
}
}  // namespace

NvmlError::NvmlError(const char* file, int line, const char* call, int status,
                     NvmlErrorString error_string)
    : LibraryError(kNvml, file, line, call, nvml_words(status, error_string), status) {}

std::string NvmlError::nvml_text() const {
    return library_message() + " (NVML code " + std::to_string(code()) + ")";
}

std::string describe_nvml_status(int status, NvmlErrorString error_string) {
    return std::string(nvml_words(status, error_string)) + " (NVML code " + std::to_string(status) +
           ")";
}

void throw_nvml_error(const char* file, int line, const char* call, int status,
                      NvmlErrorString error_string) {
    throw NvmlError(file, line, call, status, error_string);
}

bool log_nvml_error(const char* file, int line, const char* call, int status,
                    NvmlErrorString error_string) noexcept {
    return status == 0 ||
           log_library_failure(kNvml, file, line, call, nvml_words(status, error_string), status);
}

}  // namespace trainscope::profiler
