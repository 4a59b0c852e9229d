// How a multi-rank cell starts and is judged, on hand-made inputs.
#include <gtest/gtest.h>

#include "harness/isolation/RankLaunch.hpp"
#include "harness/isolation/RankOutput.hpp"
#include "reports/metrics/ScalingEfficiency.hpp"

namespace trainscope::harness {
namespace {

TEST(RankLaunch, MpirunCommandOversubscribesAndAllowsRootOnlyAsRoot) {
    const std::vector<std::string> child{"/bin/trainscope", "__cell", "job.json", "dir"};
    const auto user = mpirun_command("/usr/bin/mpirun", 4, false, child);
    EXPECT_EQ(user, (std::vector<std::string>{"/usr/bin/mpirun", "-np", "4", "--oversubscribe",
                                              "--bind-to", "none", "/bin/trainscope", "__cell",
                                              "job.json", "dir"}));
    const auto root = mpirun_command("/usr/bin/mpirun", 2, true, child);
    EXPECT_EQ(root[6], "--allow-run-as-root");
    EXPECT_EQ(root[7], "/bin/trainscope");
}

TEST(RankLaunch, RankZeroKeepsTheSingleRankFileNames) {
    EXPECT_EQ(rank_file("/x", 0, "result.db"), std::filesystem::path("/x/result.db"));
    EXPECT_EQ(rank_file("/x", 3, "error.txt"), std::filesystem::path("/x/rank3.error.txt"));
}

TEST(RankLaunch, MpirunsVerdictNamesTheRank) {
    const std::string output =
        "-----\nmpirun noticed that process rank 1 with PID 0 on node vm exited on signal 11 "
        "(Segmentation fault).\n-----\n";
    EXPECT_EQ(mpirun_rank_verdict(output),
              "mpirun: process rank 1 with PID 0 on node vm exited on signal 11 "
              "(Segmentation fault)");
    EXPECT_EQ(mpirun_rank_verdict("all fine\n"), "");
}

TEST(RankLaunch, SrunStartsTheRanksAsOneStepOverPmix) {
    const std::vector<std::string> child{"/bin/trainscope", "__cell", "job.json", "dir"};
    EXPECT_EQ(srun_command("/usr/bin/srun", 2, child),
              (std::vector<std::string>{"/usr/bin/srun", "--mpi=pmix", "--ntasks=2",
                                        "--kill-on-bad-exit=1", "/bin/trainscope", "__cell",
                                        "job.json", "dir"}));
}

TEST(RankLaunch, SrunsVerdictNamesTheTasksThatFailed) {
    const std::string output =
        "srun: error: vm: task 1: Segmentation fault (core dumped)\n"
        "srun: launch/slurm: _step_signal: Terminating StepId=12.0\n"
        "srun: error: vm: task 0: Terminated\n"
        "srun: error: Timed out waiting for job step to complete\n";
    EXPECT_EQ(srun_rank_verdict(output),
              "srun: error: vm: task 1: Segmentation fault (core dumped); srun: error: vm: task "
              "0: Terminated");
    EXPECT_EQ(srun_rank_verdict("all fine\n"), "");
}

TEST(ScalingEfficiency, ImagesPerSecondOverRanksTimesOneRank) {
    EXPECT_DOUBLE_EQ(*reports::scaling_efficiency(1800.0, 2, 1000.0), 0.9);
    EXPECT_DOUBLE_EQ(*reports::scaling_efficiency(4000.0, 4, 1000.0), 1.0);
    EXPECT_FALSE(reports::scaling_efficiency(1000.0, 2, 0.0).has_value());
}

TEST(ScalingEfficiency, AgainstTheOneRankCellOfTheSameAxes) {
    const auto run = [](long long ranks, std::string overlap, double images_per_s, int batch) {
        reports::RunRecord r;
        r.status = reports::RunStatus::Ok;
        r.axes.ranks = ranks;
        r.axes.overlap = std::move(overlap);
        r.axes.batch = batch;
        r.metrics.push_back({"images_per_s", images_per_s, "images/s"});
        return r;
    };
    const std::vector<reports::RunRecord> runs{run(1, "on", 1000.0, 64), run(1, "on", 500.0, 128),
                                               run(2, "on", 1500.0, 64), run(2, "off", 1000.0, 64)};
    EXPECT_DOUBLE_EQ(*reports::scaling_efficiency(runs[2], runs), 0.75);
    EXPECT_DOUBLE_EQ(*reports::scaling_efficiency(runs[3], runs), 0.5);  // the overlap=on base
    EXPECT_DOUBLE_EQ(*reports::scaling_efficiency(runs[0], runs), 1.0);
    const std::vector<reports::RunRecord> alone{run(2, "on", 1500.0, 64)};
    EXPECT_FALSE(reports::scaling_efficiency(alone[0], alone).has_value());
}

}  // namespace
}  // namespace trainscope::harness

namespace trainscope::harness {
namespace {

TEST(RankLaunch, ARanksTraceKeepsItsRankThroughTheMerge) {
    profiler::Trace trace;
    trace.lanes.resize(2);
    // The host tracer's collectives know neither rank nor world; another source's group
    // size (a sub-communicator) is kept.
    trace.collectives.resize(2);
    trace.collectives[1].group_size = 4;
    // Its memory/<class> series share their names with every other rank's.
    trace.counters.resize(1);
    trace.counters[0].name = "memory/weights";
    mark_trace_rank(trace, 1, 2);
    EXPECT_EQ(trace.counters[0].rank, 1);
    EXPECT_EQ(trace.world_size, 2);
    for (const profiler::Lane& lane : trace.lanes)
        EXPECT_EQ(lane.rank, 1);
    EXPECT_EQ(trace.collectives[0].rank, 1);
    EXPECT_EQ(trace.collectives[1].rank, 1);
    EXPECT_EQ(trace.collectives[0].group_size, 2);
    EXPECT_EQ(trace.collectives[1].group_size, 4);
}

}  // namespace
}  // namespace trainscope::harness
