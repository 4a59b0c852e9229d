#include "workloads/distributed/MpiSession.hpp"

#include <mpi.h>

#include <cstdlib>
#include <stdexcept>

#include "workloads/distributed/MpiError.hpp"

namespace trainscope::workloads {

MpiSession::MpiSession() {
    if (!initialized()) {
        int provided = MPI_THREAD_SINGLE;
        TS_MPI_CHECK(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided));
        owns_ = true;
        if (provided < MPI_THREAD_FUNNELED) {
            MPI_Finalize();
            throw std::runtime_error(
                "MPI: the library gives thread level " + std::to_string(provided) +
                " but trainscope needs MPI_THREAD_FUNNELED; use an MPI built with threads");
        }
    }
    // Errors come back as codes, which TS_MPI_CHECK turns into MpiError, instead of MPI's
    // default of aborting the job with half-written results.
    TS_MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    TS_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank_));
    TS_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size_));
}

MpiSession::~MpiSession() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owns_ && finalized == 0) {
        TS_MPI_CHECK_NOEXCEPT(MPI_Finalize());
    }
}

bool MpiSession::launched_by_mpi() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
        if (std::getenv(name) != nullptr) {
            return true;
        }
    }
    return false;
}

bool MpiSession::initialized() {
    int initialized = 0;
    int finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    return initialized != 0 && finalized == 0;
}

}  // namespace trainscope::workloads
