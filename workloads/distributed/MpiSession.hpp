#pragma once

namespace trainscope::workloads {

// MPI's lifetime in one process: MPI_Init_thread (FUNNELED: only the thread that made
// the session calls MPI; the backend's workers never do) unless MPI is already up, and
// MPI_Finalize in the destructor when this session initialized it. Made by a process
// that runs a multi-rank cell (the harness's cell child, the distributed tests), never in
// static initialization: a single-rank run never touches MPI.
class MpiSession {
  public:
    MpiSession();
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    int world_rank() const { return rank_; }
    int world_size() const { return size_; }

    // Whether this process was started by an MPI launcher (mpirun, srun with PMIx/PMI2),
    // read from the launchers' environment; no MPI call.
    static bool launched_by_mpi();
    static bool initialized();

  private:
    bool owns_ = false;
    int rank_ = 0;
    int size_ = 1;
};

}  // namespace trainscope::workloads
