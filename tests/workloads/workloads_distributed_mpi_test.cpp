// Data-parallel training over MPI ranks, run by CTest as
// `mpirun --oversubscribe -np 2 workloads_distributed_mpi_tests`: every rank runs every
// test, and mpirun fails when any rank does. Started without an MPI launcher it skips.
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

// One thread per rank: mpirun starts both ranks on this machine's cores.
TrainingConfig parity_run(const std::string& model, int ranks) {
    TrainingConfig config = testing::parity_run(model, ranks);
    config.threads = 1;
    return config;
}

class DataParallel : public ::testing::TestWithParam<const char*> {};

TEST_P(DataParallel, TwoRanksFollowTheSingleRankLossCurve) {
    // One evaluation of the 10000 test images, at the end: the same numbers on every rank.
    TrainingConfig config = parity_run(GetParam(), 1);
    config.evaluate = true;
    const TrainingResult single = run_training(config, nullptr);
    MpiCommunicator world;
    ReplicaCheck replicas(world);
    config.ranks = world.size();
    const TrainingResult both = run_training(config, &replicas);
    ASSERT_EQ(single.steps.size(), 30u);
    ASSERT_EQ(both.steps.size(), 30u);
    for (std::size_t i = 0; i < single.steps.size(); ++i) {
        const double a = single.steps[i].loss;
        const double b = both.steps[i].loss;
        EXPECT_LE(std::abs(a - b), 1e-10 * std::abs(a)) << "step " << i << ": " << a << " vs " << b;
    }
    ASSERT_EQ(single.evaluations.size(), both.evaluations.size());
    for (std::size_t i = 0; i < single.evaluations.size(); ++i) {
        EXPECT_EQ(single.evaluations[i].test_accuracy, both.evaluations[i].test_accuracy);
        EXPECT_NEAR(single.evaluations[i].test_loss, both.evaluations[i].test_loss,
                    1e-10 * std::abs(single.evaluations[i].test_loss));
    }
    EXPECT_EQ(replicas.steps(), 30);
    EXPECT_EQ(replicas.diverged_steps(), 0) << "ranks held different parameters";
    EXPECT_GT(both.extra_metrics.at("gradient_buckets"), 1.0);
    EXPECT_EQ(both.extra_metrics.at("rank_batch"), 64.0 / world.size());
    EXPECT_EQ(both.images_trained, single.images_trained);
    EXPECT_EQ(both.environment.at("communicator"), "MPI");
    std::int64_t communication = 0;
    for (const StepRecord& step : both.steps) {
        communication += step.communication_ns;
        EXPECT_LE(step.exposed_communication_ns, step.duration_ns);
    }
    EXPECT_GT(communication, 0);
}

TEST_P(DataParallel, OverlapOnAndOffGiveIdenticalLosses) {
    MpiCommunicator world;
    TrainingConfig on = parity_run(GetParam(), world.size());
    TrainingConfig off = on;
    off.overlap = Overlap::off;
    EXPECT_EQ(losses(run_training(on, nullptr)), losses(run_training(off, nullptr)));
}

INSTANTIATE_TEST_SUITE_P(Models, DataParallel, ::testing::Values("seed-cnn", "lenet5"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                             return std::string(param.param) == "seed-cnn" ? "SeedCnn" : "LeNet5";
                         });

// A stopping rule judges each rank's own step times, so ranks may want to stop at
// different steps; all stop at the first step any rank wants to stop after, instead of
// one waiting forever for the others' all-reduce.
class StopAfter final : public TrainingObserver {
  public:
    explicit StopAfter(int steps) : steps_(steps) {}
    bool on_step(const StepRecord& step) override { return step.index + 1 < steps_; }

  private:
    int steps_;
};

TEST(DataParallelConfig, RanksStopTogetherWhenOneRanksObserverStops) {
    MpiCommunicator world;
    TrainingConfig config = parity_run("seed-cnn", world.size());
    StopAfter observer(world.rank() == 0 ? 4 : 1000);
    const TrainingResult result = run_training(config, &observer);
    EXPECT_EQ(result.steps.size(), 4u);
}

TEST(DataParallelConfig, RanksMustMatchTheLaunch) {
    MpiCommunicator world;
    TrainingConfig config = parity_run("seed-cnn", world.size() * 2);
    EXPECT_THROW(run_training(config, nullptr), ConfigError);
}

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
    trainscope::workloads::MpiSession mpi;
    if (mpi.world_size() < 2) {
        std::printf("skipped: started as 1 rank; run with mpirun -np 2\n");
        return 77;
    }
    return RUN_ALL_TESTS();
}
