#include "profiler/nvml/NvmlError.hpp"

#include <mutex>
#include <utility>
#include <vector>

namespace trainscope::profiler {

namespace {
constexpr const char* kNvml = "NVML";

std::mutex g_words_mutex;
// Each function with the number of holders still open: two samplers dlopen the same
// libnvidia-ml and get the same pointer, and the first to close must not silence the
// other. The newest registration still held answers.
std::vector<std::pair<NvmlErrorString, int>> g_holders;  // guarded by g_words_mutex

NvmlErrorString current_error_string() {
    return g_holders.empty() ? nullptr : g_holders.back().first;
}

// Copied under the lock: the library cannot be closed while its table is read.
std::string nvml_words(int status) {
    const std::lock_guard lock(g_words_mutex);
    const NvmlErrorString error_string = current_error_string();
    const char* text = error_string != nullptr ? error_string(status) : nullptr;
    return text != nullptr ? text : "unknown error";
}
}  // namespace

void use_nvml_error_string(NvmlErrorString error_string) noexcept {
    if (error_string == nullptr)
        return;
    const std::lock_guard lock(g_words_mutex);
    for (auto it = g_holders.begin(); it != g_holders.end(); ++it) {
        if (it->first == error_string) {
            const int holders = it->second + 1;
            g_holders.erase(it);
            g_holders.emplace_back(error_string, holders);
            return;
        }
    }
    try {
        g_holders.emplace_back(error_string, 1);
    } catch (...) {
        // Out of memory: errors then say "unknown error", which is still true.
    }
}

void forget_nvml_error_string(NvmlErrorString error_string) noexcept {
    const std::lock_guard lock(g_words_mutex);
    for (auto it = g_holders.begin(); it != g_holders.end(); ++it) {
        if (it->first == error_string) {
            if (--it->second == 0)
                g_holders.erase(it);
            return;
        }
    }
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
