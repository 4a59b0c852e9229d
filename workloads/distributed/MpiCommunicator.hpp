#pragma once

#include <memory>

#include "workloads/distributed/Communicator.hpp"

namespace trainscope::workloads {

// The CPU backend's communicator: MPI over a duplicate of MPI_COMM_WORLD (so nothing
// else's messages mix with ours), MPI_Iallreduce on host memory. MPI must be initialized
// (MpiSession). The mean is MPI's sum scaled by 1/size once a request completes.
class MpiCommunicator final : public Communicator {
  public:
    MpiCommunicator();
    ~MpiCommunicator() override;

    int rank() const override;
    int size() const override;
    int local_rank() const override;
    // The ranks on this node (MPI_COMM_TYPE_SHARED), which share its cores.
    int local_size() const;
    std::string library() const override { return "MPI"; }

    void start_all_reduce_mean(const Tensor& tensor) override;
    void progress() override;
    void wait_all() override;
    CommunicationTimes take_step_times() override;

    void all_reduce_sum(std::span<double> values) override;
    void broadcast(std::span<std::byte> bytes, int root) override;
    void barrier() override;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace trainscope::workloads
