#pragma once

#include <memory>

#include "workloads/distributed/Communicator.hpp"

namespace trainscope::workloads {

class MpiCommunicator;

// The CUDA backend's communicator: one NCCL communicator over the MPI ranks (rank 0's
// ncclUniqueId broadcast over MPI, as nccl-tests does), all-reduces (ncclAvg) on a
// communication stream of its own. Each all-reduce waits on an event recorded on the
// compute stream when it starts, and wait_all() makes the compute stream wait on the
// communication stream's last event: the host never blocks, compute and communication
// overlap on the device. Host-side collectives go through `mpi`.
// compute_stream is the backend's cudaStream_t (Backend::native_stream), on the current
// device.
class NcclCommunicator final : public Communicator {
  public:
    NcclCommunicator(std::unique_ptr<MpiCommunicator> mpi, void* compute_stream);
    ~NcclCommunicator() override;

    int rank() const override;
    int size() const override;
    int local_rank() const override;
    std::string library() const override { return "NCCL"; }

    void start_all_reduce_mean(const Tensor& tensor) override;
    void wait_all() override;
    CommunicationTimes take_step_times() override;

    void all_reduce_sum(std::span<double> values) override;
    void broadcast(std::span<std::byte> bytes, int root) override;
    void barrier() override;

  private:
    struct State;
    std::unique_ptr<MpiCommunicator> mpi_;
    std::unique_ptr<State> state_;
};

}  // namespace trainscope::workloads
