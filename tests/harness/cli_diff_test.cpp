// `trainscope diff` on two real traces imported through the CLI, its figures held
// against sums taken here from the raw Kineto files.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

const std::string kKineto = std::string(TRAINSCOPE_SHARED_DIR) + "/traces/kineto/";

nlohmann::json read_gz_json(const std::string& path) {
    gzFile in = gzopen(path.c_str(), "rb");
    EXPECT_NE(in, nullptr) << path;
    std::string text;
    char buffer[1 << 16];
    int n = 0;
    while (in != nullptr && (n = gzread(in, buffer, sizeof buffer)) > 0)
        text.append(buffer, static_cast<std::size_t>(n));
    if (in != nullptr)
        gzclose(in);
    return nlohmann::json::parse(text);
}

struct Sum {
    std::int64_t count = 0;
    double total_us = 0;
};

// Kernel events of a raw Kineto file by name (category "kernel" in any case).
std::map<std::string, Sum> raw_kernels(const std::string& file) {
    std::map<std::string, Sum> out;
    const nlohmann::json trace = read_gz_json(kKineto + file);  // outlives the loop
    for (const auto& e : trace.at("traceEvents")) {
        std::string cat = e.value("cat", "");
        std::transform(cat.begin(), cat.end(), cat.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        if (cat != "kernel")
            continue;
        Sum& s = out[e.at("name").get<std::string>()];
        ++s.count;
        s.total_us += e.at("dur").get<double>();
    }
    return out;
}

class DiffOfRealTraces : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new testing::TempDir;
        db_ = (*dir_ / "two.db").string();
        other_ = (*dir_ / "other.db").string();
        const auto imported =
            run_trainscope("import " + kKineto + "v100_resnet50_training.json.gz " + kKineto +
                           "a100_two_streams_add.json.gz -o " + db_);
        ASSERT_EQ(imported.exit_code, 0) << imported.output;
        const auto again =
            run_trainscope("import " + kKineto + "v100_resnet50_training.json.gz -o " + other_);
        ASSERT_EQ(again.exit_code, 0) << again.output;
    }
    static void TearDownTestSuite() { delete dir_; }

    static nlohmann::json diff_json(const std::string& arguments) {
        const auto r = run_trainscope("diff " + arguments + " --format json");
        EXPECT_EQ(r.exit_code, 0) << r.output;
        return nlohmann::json::parse(r.output);
    }

    static testing::TempDir* dir_;
    static std::string db_;
    static std::string other_;
};
testing::TempDir* DiffOfRealTraces::dir_ = nullptr;
std::string DiffOfRealTraces::db_;
std::string DiffOfRealTraces::other_;

TEST_F(DiffOfRealTraces, KernelFiguresAreTheRawFilesSums) {
    const auto resnet = raw_kernels("v100_resnet50_training.json.gz");
    const auto streams = raw_kernels("a100_two_streams_add.json.gz");
    const auto rows = diff_json(db_ + " 1 2 --what kernels --exact-names");
    std::set<std::string> names;
    for (const auto& [name, s] : resnet)
        names.insert(name);
    for (const auto& [name, s] : streams)
        names.insert(name);
    Sum a, b;
    std::size_t kernel_rows = 0;
    double last_change = 1e300;
    for (const auto& row : rows) {
        EXPECT_EQ(row.at("kind"), "kernel");
        // Sorted by the absolute change of total time, largest first.
        const double change = std::abs(row.at("change (us)").get<double>());
        EXPECT_LE(change, last_change + 1e-9);
        last_change = change;
        if (row.at("category") == "memcpy/memset")
            continue;
        ++kernel_rows;
        const std::string name = row.at("name");
        a.count += row.at("count A").get<std::int64_t>();
        a.total_us += row.at("total A (us)").get<double>();
        b.count += row.at("count B").get<std::int64_t>();
        b.total_us += row.at("total B (us)").get<double>();
        const auto ra = resnet.find(name);
        const auto rb = streams.find(name);
        const Sum sa = ra == resnet.end() ? Sum{} : ra->second;
        const Sum sb = rb == streams.end() ? Sum{} : rb->second;
        EXPECT_EQ(row.at("count A").get<std::int64_t>(), sa.count) << name;
        EXPECT_NEAR(row.at("total A (us)").get<double>(), sa.total_us, 1e-3) << name;
        EXPECT_EQ(row.at("count B").get<std::int64_t>(), sb.count) << name;
        EXPECT_NEAR(row.at("total B (us)").get<double>(), sb.total_us, 1e-3) << name;
        EXPECT_EQ(row.at("status"), sa.count == 0   ? "new"
                                    : sb.count == 0 ? "missing"
                                                    : "both")
            << name;
        // A side that lacks the name has no mean: null, not 0.
        EXPECT_EQ(row.at("mean A (us)").is_null(), sa.count == 0) << name;
        EXPECT_EQ(row.at("mean B (us)").is_null(), sb.count == 0) << name;
    }
    EXPECT_EQ(kernel_rows, names.size());
    EXPECT_EQ(a.count, 8772);  // the README's counts
    EXPECT_NEAR(a.total_us, 591532, 1e-3);
    EXPECT_EQ(b.count, 79);
    EXPECT_NEAR(b.total_us, 10728, 1e-3);
}

TEST_F(DiffOfRealTraces, NormalisedNamesFoldInstantiations) {
    const auto exact = diff_json(db_ + " 1 2 --what kernels --exact-names");
    const auto folded = diff_json(db_ + " 1 2 --what kernels");
    EXPECT_LT(folded.size(), exact.size());
    bool found = false;
    for (const auto& row : folded) {
        // ResNet's many vectorized_elementwise_kernel<...> instantiations are one row.
        if (row.at("name") == "at::native::vectorized_elementwise_kernel") {
            found = true;
            std::int64_t count = 0;
            for (const auto& [name, s] : raw_kernels("v100_resnet50_training.json.gz")) {
                if (name.rfind("void at::native::vectorized_elementwise_kernel<", 0) == 0)
                    count += s.count;
            }
            EXPECT_EQ(row.at("count A").get<std::int64_t>(), count);
        }
        EXPECT_EQ(row.at("name").get<std::string>().find('<'), std::string::npos) << row.at("name");
    }
    EXPECT_TRUE(found);
}

TEST_F(DiffOfRealTraces, StepRangesAddUpAndARunAgainstItselfIsUnchanged) {
    const std::string self = db_ + " 1 1 --against " + other_ + " --what kernels";
    const auto count = [&](const std::string& steps) {
        std::int64_t n = 0;
        for (const auto& row : diff_json(self + " --steps " + steps)) {
            EXPECT_EQ(row.at("count A"), row.at("count B"));
            EXPECT_EQ(row.at("change (us)").get<double>(), 0.0);
            n += row.at("count A").get<std::int64_t>();
        }
        return n;
    };
    const std::int64_t first = count("5:5");
    const std::int64_t rest = count("6:");
    EXPECT_GT(first, 0);
    EXPECT_GT(rest, first);
    EXPECT_EQ(first + rest, count("5:10"));
    // Per step: every kernel of this trace is launched inside ProfilerStep#5..#10, so six
    // times the per-step kernel time is the README's kernel sum.
    double per_step_us = 0;
    for (const auto& row : diff_json(self + " --per-step")) {
        if (row.at("category") != "memcpy/memset")
            per_step_us += row.at("A per step (us)").get<double>();
    }
    EXPECT_NEAR(per_step_us * 6, 591532, 0.1);
    const auto categories = run_trainscope("diff " + self + " --by category --format csv");
    ASSERT_EQ(categories.exit_code, 0) << categories.output;
    EXPECT_NE(categories.output.find("kernel,convolution,"), std::string::npos)
        << categories.output;
}

TEST_F(DiffOfRealTraces, BadInputIsNamedWithExitCode2) {
    // A run recorded without a trace, and a file that is no database.
    const std::string untraced = (*dir_ / "untraced.db").string();
    {
        const reports::ResultsDatabase db(untraced, reports::OpenMode::CreateOrOpen);
        reports::RunWriter writer(db);
        reports::RunRecord run;
        run.matrix_id = writer.create_matrix({"m", "{}", "test", "test"});
        writer.write(run);
    }
    const std::string junk = (*dir_ / "junk.db").string();
    std::ofstream(junk) << "not a database";
    struct Case {
        std::string arguments;
        std::string said;
    };
    const std::vector<Case> cases{
        {db_ + " 1 7", "run 7"},
        {db_ + " 1 1", "same run"},
        {db_ + " 1 2 --steps 6:5", "--steps '6:5'"},
        {db_ + " 1 2 --steps 5:6", "no training-step ranges"},  // run 2 has none
        {db_ + " 1 1 --against " + other_ + " --steps 50:60", "numbered 5 to 10"},
        {db_ + " 1 2 --against " + db_ + ".missing", ".missing"},
        {db_ + " 1 2 --format xml", "--format 'xml'"},
        {db_ + " 1 1 --against " + untraced, "has no trace"},
        {db_ + " 1 1 --against " + junk, "junk.db"},
    };
    for (const auto& c : cases) {
        const auto r = run_trainscope("diff " + c.arguments);
        EXPECT_EQ(r.exit_code, 2) << c.arguments << "\n" << r.output;
        EXPECT_NE(r.output.find(c.said), std::string::npos) << c.arguments << "\n" << r.output;
    }
}

}  // namespace
}  // namespace trainscope
