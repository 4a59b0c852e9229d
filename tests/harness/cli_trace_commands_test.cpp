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

bool close(double a, double b) { return std::fabs(a - b) <= 1e-6 * std::max(std::fabs(b), 1e-12) || a == b; }

class TracelensThroughCli : public ::testing::TestWithParam<const char*> {};

TEST_P(TracelensThroughCli, ImportThenAnalyzeReproducesReferenceTimeline) {
    const std::string name = GetParam();
    testing::TempDir dir;
    const auto db = (dir / "imported.db").string();
    const auto imported = run_trainscope("import " + kTraces + "/kineto/" + name + ".json.gz -o " + db);
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
        if (!(fields >> type >> time_ms >> percent)) continue;
        const auto it = expected.find(type);
        if (it == expected.end()) continue;
        EXPECT_TRUE(close(time_ms, it->second.first)) << type << ": " << time_ms << " vs " << it->second.first;
        EXPECT_TRUE(close(percent, it->second.second)) << type << ": " << percent << " vs " << it->second.second;
        ++matched;
    }
    EXPECT_EQ(matched, 8) << analyzed.output;
}

INSTANTIATE_TEST_SUITE_P(H100Traces, TracelensThroughCli,
                         ::testing::Values("h100_bert_small_inference", "h100_vit_image_classification"));

TEST(TraceCommands, ImportAnalyzeAndExportTheResNetTrace) {
    testing::TempDir dir;
    const auto db = (dir / "imported.db").string();
    const auto imported = run_trainscope("import " + kTraces + "/kineto/v100_resnet50_training.json.gz " +
                                         kTraces + "/nsys/a100_saxpy_mpi_cuda.sqlite -o " + db);
    ASSERT_EQ(imported.exit_code, 0) << imported.output;
    const auto analyzed = run_trainscope("analyze " + db + " --run 1 --top 3");
    ASSERT_EQ(analyzed.exit_code, 0) << analyzed.output;
    EXPECT_NE(analyzed.output.find("591.532 ms"), std::string::npos) << "kernel busy time of the README table";
    EXPECT_NE(analyzed.output.find("convolution"), std::string::npos);
    EXPECT_NE(analyzed.output.find("Trace health"), std::string::npos);
    const auto nsys = run_trainscope("analyze " + db + " --run 2");
    ASSERT_EQ(nsys.exit_code, 0) << nsys.output;
    EXPECT_NE(nsys.output.find("88.573 ms"), std::string::npos) << nsys.output;

    const auto json_file = dir / "trace.json";
    const auto exported = run_trainscope("export " + db + " --run 1 --format chrome -o " + json_file.string());
    ASSERT_EQ(exported.exit_code, 0) << exported.output;
    std::ifstream in(json_file);
    const auto json = nlohmann::json::parse(in);
    std::size_t kernels = 0;
    for (const auto& e : json.at("traceEvents")) kernels += e.value("cat", "") == "kernel";
    EXPECT_EQ(kernels, 8772u);
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
