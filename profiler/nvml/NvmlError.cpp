#include "profiler/nvml/NvmlError.hpp"

#include <mutex>

namespace trainscope::profiler {

namespace {
constexpr const char* kNvml = "NVML";

std::mutex g_words_mutex;
NvmlErrorString g_error_string = nullptr;  // guarded by g_words_mutex

// Copied under the lock: the library cannot be closed while its table is read.
std::string nvml_words(int status) {
    const std::lock_guard lock(g_words_mutex);
    const char* text = g_error_string != nullptr ? g_error_string(status) : nullptr;
    return text != nullptr ? text : "unknown error";
}
}  // namespace

void use_nvml_error_string(NvmlErrorString error_string) noexcept {
    const std::lock_guard lock(g_words_mutex);
    g_error_string = error_string;
}

void forget_nvml_error_string(NvmlErrorString error_string) noexcept {
    const std::lock_guard lock(g_words_mutex);
    if (g_error_string == error_string)
        g_error_string = nullptr;
}

NvmlError::NvmlError(const char* file, int line, const char* call, int status)
    : LibraryError(kNvml, file, line, call, nvml_words(status), status) {}

std::string NvmlError::nvml_text() const {
    return library_message() + " (NVML code " + std::to_string(code()) + ")";
}

std::string describe_nvml_status(int status) {
    return nvml_words(status) + " (NVML code " + std::to_string(status) + ")";
}

void throw_nvml_error(const char* file, int line, const char* call, int status) {
    throw NvmlError(file, line, call, status);
}

bool log_nvml_error(const char* file, int line, const char* call, int status) noexcept {
    if (status == 0)
        return true;
    try {
        return log_library_failure(kNvml, file, line, call, nvml_words(status), status);
    } catch (...) {
        return log_library_failure(kNvml, file, line, call, "", status);
    }
}

}  // namespace trainscope::profiler
