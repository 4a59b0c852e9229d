// Data-parallel training on 2 GPUs with NCCL, run by CTest as
// `mpirun --oversubscribe -np 2 workloads_distributed_nccl_gpu_tests` (label gpu): every
// rank runs every test on the GPU of its local rank, and mpirun fails when any rank does.
// It skips, saying why, without mpirun or with fewer than 2 CUDA devices.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/workloads/DataParallelParity.hpp"
#include "workloads/distributed/MpiCommunicator.hpp"
#include "workloads/distributed/MpiSession.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::workloads {
namespace {

using testing::losses;
using testing::ReplicaCheck;

TrainingConfig parity_run(const std::string& model, int ranks) {
    TrainingConfig config = testing::parity_run(model, ranks);
    config.backend = "cuda";
    return config;
}

class NcclDataParallel : public ::testing::TestWithParam<const char*> {};

TEST_P(NcclDataParallel, TwoGpusFollowTheSingleGpuLossCurve) {
    MpiCommunicator world;
    TrainingConfig config = parity_run(GetParam(), 1);
    config.device = world.local_rank();  // each rank's single-GPU run on its own device
    const TrainingResult single = run_training(config, nullptr);
    ReplicaCheck replicas(world);
    config = parity_run(GetParam(), world.size());  // device 0 + local rank
    const TrainingResult both = run_training(config, &replicas);
    ASSERT_EQ(single.steps.size(), 30u);
    ASSERT_EQ(both.steps.size(), 30u);
    for (std::size_t i = 0; i < single.steps.size(); ++i) {
        const double a = single.steps[i].loss;
        const double b = both.steps[i].loss;
        EXPECT_LE(std::abs(a - b), 1e-10 * std::abs(a)) << "step " << i << ": " << a << " vs " << b;
    }
    EXPECT_EQ(replicas.steps(), 30);
    EXPECT_EQ(replicas.diverged_steps(), 0) << "ranks held different parameters";
    EXPECT_EQ(both.environment.at("communicator"), "NCCL");
    EXPECT_GT(both.extra_metrics.at("gradient_buckets"), 1.0);
    std::int64_t communication = 0;
    for (const StepRecord& step : both.steps)
        communication += step.communication_ns;
    EXPECT_GT(communication, 0);
}

TEST_P(NcclDataParallel, OverlapOnAndOffGiveIdenticalLosses) {
    MpiCommunicator world;
    TrainingConfig on = parity_run(GetParam(), world.size());
    TrainingConfig off = on;
    off.overlap = Overlap::off;
    EXPECT_EQ(losses(run_training(on, nullptr)), losses(run_training(off, nullptr)));
}

INSTANTIATE_TEST_SUITE_P(Models, NcclDataParallel, ::testing::Values("seed-cnn", "lenet5"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                             return std::string(param.param) == "seed-cnn" ? "SeedCnn" : "LeNet5";
                         });

}  // namespace
}  // namespace trainscope::workloads

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    if (!trainscope::workloads::MpiSession::launched_by_mpi()) {
        std::printf(
            "skipped: not started by mpirun (CTest runs it as mpirun -np 2; is mpirun "
            "installed? apt install openmpi-bin)\n");
        return 77;
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 2) {
        cudaGetLastError();
        std::printf("skipped: NCCL parity needs 2 CUDA devices, cudaGetDeviceCount found %d\n",
                    devices);
        return 77;
    }
    trainscope::workloads::MpiSession mpi;
    if (mpi.world_size() < 2) {
        std::printf("skipped: started as 1 rank; run with mpirun -np 2\n");
        return 77;
    }
    return RUN_ALL_TESTS();
}
