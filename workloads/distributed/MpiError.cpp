#include "workloads/distributed/MpiError.hpp"

#include <mpi.h>

#include <string>

namespace trainscope::workloads {
namespace {

constexpr const char* kMpi = "MPI";

std::string text_of(int status) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    // MPI_Error_string works before MPI_Init and after MPI_Finalize.
    if (MPI_Error_string(status, text, &length) != MPI_SUCCESS) {
        return "";
    }
    return std::string(text, static_cast<std::size_t>(length));
}

}  // namespace

MpiError::MpiError(const char* file, int line, const char* call, int status)
    : LibraryError(kMpi, file, line, call, text_of(status), status) {}

void throw_mpi_error(const char* file, int line, const char* call, int status) {
    throw MpiError(file, line, call, status);
}

bool log_mpi_error(const char* file, int line, const char* call, int status) noexcept {
    if (status == MPI_SUCCESS) {
        return true;
    }
    try {
        return log_library_failure(kMpi, file, line, call, text_of(status), status);
    } catch (...) {
        return log_library_failure(kMpi, file, line, call, "", status);
    }
}

}  // namespace trainscope::workloads
