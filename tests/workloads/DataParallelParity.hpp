#pragma once

// What the data-parallel parity tests share, over MPI on CPUs
// (workloads_distributed_mpi_test.cpp) and over NCCL on GPUs (nccl_parity_gpu_test.cpp):
// the run whose loss curve two ranks must follow, and a bit-for-bit replica check.

#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "workloads/distributed/Communicator.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::workloads::testing {

// fp64 on tiny synthetic images, so that only the all-reduce's summation order differs
// from one rank's run: 30 steps of global batch 64 in a fraction of a second.
inline TrainingConfig parity_run(const std::string& model, int ranks) {
    TrainingConfig config;
    config.model = model;
    config.dataset = "synthetic";
    config.input_shape = "1x16x16";
    config.classes = 10;
    config.precision = Precision::fp64;
    config.batch = 64;
    config.steps = 30;
    config.warmup_steps = 0;
    config.evaluate = false;
    config.ranks = ranks;
    config.bucket_mb = 0.01;  // several buckets: the overlap path starts some during backward
    return config;
}

inline std::vector<double> losses(const TrainingResult& result) {
    std::vector<double> values;
    for (const StepRecord& step : result.steps)
        values.push_back(step.loss);
    return values;
}

// After every step, compares this rank's parameters with rank 0's, bit for bit (over the
// communicator, on the host copies the observer receives).
class ReplicaCheck final : public TrainingObserver {
  public:
    explicit ReplicaCheck(Communicator& world) : world_(world) {}
    bool on_step(const StepRecord&) override { return true; }
    bool wants_parameters() const override { return true; }
    void on_parameters(const std::vector<double>& masters) override {
        std::vector<double> root = masters;
        world_.broadcast(std::as_writable_bytes(std::span(root)), 0);
        double differs =
            std::memcmp(root.data(), masters.data(), masters.size() * sizeof(double)) ? 1.0 : 0.0;
        world_.all_reduce_sum(std::span(&differs, 1));
        steps_ += 1;
        diverged_steps_ += differs > 0.0 ? 1 : 0;
    }
    int steps() const { return steps_; }
    int diverged_steps() const { return diverged_steps_; }

  private:
    Communicator& world_;
    int steps_ = 0;
    int diverged_steps_ = 0;
};

}  // namespace trainscope::workloads::testing
