#pragma once

#include <nccl.h>

#include "common/LibraryError.hpp"

namespace trainscope::workloads::cuda {

// A failed NCCL call: the message carries ncclGetErrorString's text (and, for a system or
// internal error, ncclGetLastError's detail) and the ncclResult_t.
class NcclError : public LibraryError {
  public:
    NcclError(const char* file, int line, const char* call, ncclResult_t status);
};

[[noreturn]] void throw_nccl_error(const char* file, int line, const char* call,
                                   ncclResult_t status);
bool log_nccl_error(const char* file, int line, const char* call, ncclResult_t status) noexcept;

}  // namespace trainscope::workloads::cuda

#define TS_NCCL_CHECK(call)                                                            \
    do {                                                                               \
        const ncclResult_t ts_status_ = (call);                                        \
        if (ts_status_ != ncclSuccess) {                                               \
            ::trainscope::workloads::cuda::throw_nccl_error(__FILE__, __LINE__, #call, \
                                                            ts_status_);               \
        }                                                                              \
    } while (false)

#define TS_NCCL_CHECK_NOEXCEPT(call) \
    ::trainscope::workloads::cuda::log_nccl_error(__FILE__, __LINE__, #call, (call))
