#pragma once

#include "common/LibraryError.hpp"

namespace trainscope::workloads {

// A failed MPI call: the message carries MPI_Error_string's text and the error code.
// Only the .cpp includes <mpi.h>: the status travels as its int.
class MpiError : public LibraryError {
  public:
    MpiError(const char* file, int line, const char* call, int status);
};

[[noreturn]] void throw_mpi_error(const char* file, int line, const char* call, int status);
// The _NOEXCEPT half: logs a failure in the same words; yields whether the call succeeded.
bool log_mpi_error(const char* file, int line, const char* call, int status) noexcept;

}  // namespace trainscope::workloads

// MPI_SUCCESS is 0 in every MPI implementation (the standard fixes it).
#define TS_MPI_CHECK(call)                                                                   \
    do {                                                                                     \
        const int ts_status_ = (call);                                                       \
        if (ts_status_ != 0) {                                                               \
            ::trainscope::workloads::throw_mpi_error(__FILE__, __LINE__, #call, ts_status_); \
        }                                                                                    \
    } while (false)

#define TS_MPI_CHECK_NOEXCEPT(call) \
    ::trainscope::workloads::log_mpi_error(__FILE__, __LINE__, #call, (call))
