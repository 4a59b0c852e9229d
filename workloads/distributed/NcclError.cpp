#include "workloads/distributed/NcclError.hpp"

#include <string>

namespace trainscope::workloads::cuda {
namespace {

constexpr const char* kNccl = "NCCL";

std::string text_of(ncclResult_t status) {
    std::string text = ncclGetErrorString(status) != nullptr ? ncclGetErrorString(status) : "";
    // The last error says which peer or socket failed; it is per thread and may be empty.
    const char* detail = ncclGetLastError(nullptr);
    if (detail != nullptr && detail[0] != '\0') {
        text.append(": ").append(detail);
    }
    return text;
}

}  // namespace

NcclError::NcclError(const char* file, int line, const char* call, ncclResult_t status)
    : LibraryError(kNccl, file, line, call, text_of(status), static_cast<int>(status)) {}

void throw_nccl_error(const char* file, int line, const char* call, ncclResult_t status) {
    throw NcclError(file, line, call, status);
}

bool log_nccl_error(const char* file, int line, const char* call, ncclResult_t status) noexcept {
    if (status == ncclSuccess) {
        return true;
    }
    try {
        return log_library_failure(kNccl, file, line, call, text_of(status),
                                   static_cast<int>(status));
    } catch (...) {
        return log_library_failure(kNccl, file, line, call, "", static_cast<int>(status));
    }
}

}  // namespace trainscope::workloads::cuda
