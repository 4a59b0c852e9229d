// A multi-rank CPU cell's bandwidth roof is measured once, by the cell's parent, and
// handed to the ranks: measured by every rank at once, each would see about 1/N of it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "harness/isolation/CellJob.hpp"
#include "harness/matrix/Cell.hpp"
#include "harness/runner/CellConfig.hpp"
#include "harness/runner/RooflineFacts.hpp"
#include "reports/metrics/MetricTags.hpp"

namespace trainscope::harness {
namespace {

Cell cpu_cell(const std::string& ranks) {
    Cell cell = expand_matrix({{"ranks", {ranks}}}).front();
    apply_backend_applicability(cell, workloads::BackendKind::cpu);
    return cell;
}

TEST(RooflineFacts, AGivenBandwidthIsTheRoofAndSaysSo) {
    workloads::TrainingConfig config;
    config.backend = "cpu";
    config.dataset = "synthetic";
    const RooflineFacts facts = measure_roofline_facts(config, 12.5e9);
    double roof = 0.0;
    for (const reports::Metric& m : facts.metrics) {
        if (m.name == reports::metric_tag::peak_bandwidth_gbps)
            roof = m.value;
    }
    EXPECT_DOUBLE_EQ(roof, 12.5);
    EXPECT_NE(facts.environment.at("peak_bandwidth_source").find("once for all ranks"),
              std::string::npos);
}

TEST(RooflineFacts, TheParentMeasuresOnlyForAMultiRankCpuCell) {
    EXPECT_EQ(host_bandwidth_for_ranks(cpu_cell("1")), 0.0);
    EXPECT_GT(host_bandwidth_for_ranks(cpu_cell("2")), 0.0);
    Cell skipped = cpu_cell("2");
    skipped.skip_reason = "not here";
    EXPECT_EQ(host_bandwidth_for_ranks(skipped), 0.0);
}

TEST(RooflineFacts, TheJobFileHandsTheBandwidthToTheRanks) {
    const auto file = std::filesystem::temp_directory_path() /
                      ("trainscope-bandwidth-job-" + std::to_string(::getpid()) + ".json");
    CellJob job;
    job.cell = cpu_cell("2");
    job.host_bandwidth_bytes_per_s = 7.5e9;
    write_cell_job(job, file);
    EXPECT_DOUBLE_EQ(read_cell_job(file).host_bandwidth_bytes_per_s, 7.5e9);
    std::filesystem::remove(file);
}

}  // namespace
}  // namespace trainscope::harness
