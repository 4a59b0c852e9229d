#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "CliProcess.hpp"
#include "TempDir.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

const std::string kTraces = std::string(TRAINSCOPE_SHARED_DIR) + "/traces";

// type -> (time ms, percent) from a TraceLens reference gpu_timeline.csv
std::map<std::string, std::pair<double, double>> read_expected(const std::string& file) {
    std::ifstream in(file);
    std::map<std::string, std::pair<double, double>> rows;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::stringstream fields(line);
        std::string type, time, percent;
        std::getline(fields, type, ',');
        std::getline(fields, time, ',');
        std::getline(fields, percent, ',');
        rows[type] = {std::stod(time), std::stod(percent)};
    }
    return rows;
}

bool close(double a, double b) {
    return std::fabs(a - b) <= 1e-6 * std::max(std::fabs(b), 1e-12) || a == b;
}

class TracelensThroughCli : public ::testing::TestWithParam<const char*> {};

TEST_P(TracelensThroughCli, ImportThenAnalyzeReproducesReferenceTimeline) {
    const std::string name = GetParam();
    testing::TempDir dir;
    const auto db = (dir / "imported.db").string();
    const auto imported =
        run_trainscope("import " + kTraces + "/kineto/" + name + ".json.gz -o " + db);
    ASSERT_EQ(imported.exit_code, 0) << imported.output;
    const auto analyzed = run_trainscope("analyze " + db + " --run 1 --mode tracelens");
    ASSERT_EQ(analyzed.exit_code, 0) << analyzed.output;
    const auto expected = read_expected(kTraces + "/kineto/" + name + ".expected/gpu_timeline.csv");
    ASSERT_EQ(expected.size(), 8u);
    std::stringstream out(analyzed.output);
    std::string line;
    int matched = 0;
    while (std::getline(out, line)) {
        std::stringstream fields(line);
        std::string type;
        double time_ms = 0, percent = 0;
        if (!(fields >> type >> time_ms >> percent))
            continue;
        const auto it = expected.find(type);
        if (it == expected.end())
            continue;
        EXPECT_TRUE(close(time_ms, it->second.first))
            << type << ": " << time_ms << " vs " << it->second.first;
        EXPECT_TRUE(close(percent, it->second.second))
            << type << ": " << percent << " vs " << it->second.second;
        ++matched;
    }
    EXPECT_EQ(matched, 8) << analyzed.output;
}

INSTANTIATE_TEST_SUITE_P(H100Traces, TracelensThroughCli,
                         ::testing::Values("h100_bert_small_inference",
                                           "h100_vit_image_classification"));

TEST(TraceCommands, ImportAnalyzeAndExportTheResNetTrace) {
    testing::TempDir dir;
    const auto db = (dir / "imported.db").string();
    const auto imported =
        run_trainscope("import " + kTraces + "/kineto/v100_resnet50_training.json.gz " + kTraces +
                       "/nsys/a100_saxpy_mpi_cuda.sqlite -o " + db);
    ASSERT_EQ(imported.exit_code, 0) << imported.output;
    const auto analyzed = run_trainscope("analyze " + db + " --run 1 --top 3");
    ASSERT_EQ(analyzed.exit_code, 0) << analyzed.output;
    EXPECT_NE(analyzed.output.find("591.532 ms"), std::string::npos)
        << "kernel busy time of the README table";
    EXPECT_NE(analyzed.output.find("convolution"), std::string::npos);
    EXPECT_NE(analyzed.output.find("Trace health"), std::string::npos);
    const auto nsys = run_trainscope("analyze " + db + " --run 2");
    ASSERT_EQ(nsys.exit_code, 0) << nsys.output;
    EXPECT_NE(nsys.output.find("88.573 ms"), std::string::npos) << nsys.output;

    const auto json_file = dir / "trace.json";
    const auto exported =
        run_trainscope("export " + db + " --run 1 --format chrome -o " + json_file.string());
    ASSERT_EQ(exported.exit_code, 0) << exported.output;
    std::ifstream in(json_file);
    const auto json = nlohmann::json::parse(in);
    std::size_t kernels = 0;
    for (const auto& e : json.at("traceEvents"))
        kernels += e.value("cat", "") == "kernel";
    EXPECT_EQ(kernels, 8772u);
}

TEST(TraceCommands, AJobFolderIsOneRunWithItsRanksAndTheSlowestNamed) {
    testing::TempDir dir;
    const auto db = (dir / "job.db").string();
    const auto imported =
        run_trainscope("import " + kTraces + "/multirank/param_dlrm_kineto -o " + db);
    ASSERT_EQ(imported.exit_code, 0) << imported.output;
    EXPECT_NE(imported.output.find("run 1:"), std::string::npos) << imported.output;
    EXPECT_EQ(imported.output.find("run 2:"), std::string::npos) << "one run for the job";
    EXPECT_NE(imported.output.find("job of 8 ranks (nccl), 8 present; ranks from the files' "
                                   "distributedInfo"),
              std::string::npos)
        << imported.output;
    EXPECT_NE(imported.output.find("rank 7: worker7_step_12"), std::string::npos);
    EXPECT_NE(imported.output.find("start spread across ranks: 7.513 ms"), std::string::npos);

    const auto analyzed = run_trainscope("analyze " + db + " --run 1");
    ASSERT_EQ(analyzed.exit_code, 0) << analyzed.output;
    EXPECT_NE(analyzed.output.find("Slowest rank: 7"), std::string::npos) << analyzed.output;
    EXPECT_NE(analyzed.output.find("Exposed communication per step"), std::string::npos);
    const auto hta = run_trainscope("analyze " + db + " --run 1 --mode hta");
    ASSERT_EQ(hta.exit_code, 0) << hta.output;
    // hta_reference.txt, rank 7: 75.75 / 9.66 / 14.59, overlap 9.51 %
    EXPECT_NE(hta.output.find("75.75      9.66         14.59"), std::string::npos) << hta.output;
    EXPECT_NE(hta.output.find("9.51"), std::string::npos);
    const auto one = run_trainscope("analyze " + db + " --run 1 --rank 3");
    ASSERT_EQ(one.exit_code, 0) << one.output;
    EXPECT_NE(one.output.find("Run 1, rank 3"), std::string::npos) << one.output;
    const auto first = run_trainscope("analyze " + db + " --run 1 --rank 0");
    ASSERT_EQ(first.exit_code, 0) << first.output;
    EXPECT_NE(first.output.find("Run 1, rank 0"), std::string::npos) << first.output;
    const auto none = run_trainscope("analyze " + db + " --run 1 --rank 8");
    EXPECT_EQ(none.exit_code, 2) << none.output;
    EXPECT_NE(none.output.find("no rank 8"), std::string::npos) << none.output;
}

TEST(TraceCommands, APartialJobNeedsAllowPartialAndNothingIsWritten) {
    testing::TempDir dir;
    const auto db = dir / "job.db";
    const std::string set = kTraces + "/multirank/hta_trace_filter_sampled";
    auto r = run_trainscope("import " + set + " -o " + db.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("128 ranks"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--allow-partial"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(db));
    // The same rank twice: one file given two times.
    r = run_trainscope("import " + set + "/sampled_rank-0.json.gz " + set +
                       "/sampled_rank-0.json.gz --allow-partial -o " + db.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("both rank 0"), std::string::npos) << r.output;
    r = run_trainscope("import " + set + " --allow-partial -o " + db.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto hta = run_trainscope("analyze " + db.string() + " --run 1 --mode hta");
    EXPECT_NE(hta.output.find("53.56     17.71         28.74"), std::string::npos) << hta.output;
    EXPECT_NE(hta.output.find("20.05"), std::string::npos) << hta.output;
}

TEST(TraceCommands, BadInputsAreNamedAndNothingIsWritten) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    std::ofstream(dir / "notes.txt") << "hello";
    auto r = run_trainscope("import " + (dir / "notes.txt").string() + " -o " + db.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("notes.txt"), std::string::npos) << r.output;
    std::ofstream(dir / "broken.json") << "{\"traceEvents\": [ {\"ph\": \"X\", ";
    r = run_trainscope("import " + (dir / "broken.json").string() + " -o " + db.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("broken.json"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(db));
    r = run_trainscope("analyze " + db.string() + " --run 1");
    EXPECT_EQ(r.exit_code, 2) << r.output;
}

}  // namespace
}  // namespace trainscope
