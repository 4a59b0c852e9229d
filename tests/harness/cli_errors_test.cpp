#include <gtest/gtest.h>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "workloads/devices/DeviceQuery.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

TEST(CliHelp, FollowsConventions) {
    const auto help = run_trainscope("--help");
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_NE(help.output.find("run"), std::string::npos);
    EXPECT_NE(help.output.find("report"), std::string::npos);
    const auto run_help = run_trainscope("run --help");
    EXPECT_EQ(run_help.exit_code, 0);
    EXPECT_NE(run_help.output.find("--batch"), std::string::npos);
    EXPECT_NE(run_help.output.find("--steps"), std::string::npos);
    EXPECT_NE(run_help.output.find("--backend"), std::string::npos);
    const auto version = run_trainscope("--version");
    EXPECT_EQ(version.exit_code, 0);
    EXPECT_EQ(version.output.rfind("trainscope 0.", 0), 0u) << version.output;
}

TEST(CliErrors, UnknownOptionIsOneLineWithExitCode2) {
    const auto r = run_trainscope("run --bogus");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("--bogus"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("trainscope run --help"), std::string::npos) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

TEST(CliErrors, UnknownCommand) {
    const auto r = run_trainscope("frobnicate");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("unknown command 'frobnicate'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("run"), std::string::npos) << r.output;
}

TEST(CliErrors, BadAxisValueNamesValidValues) {
    testing::TempDir dir;
    const auto r = run_trainscope("run --precision fp8 --out " + (dir / "r.db").string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("fp8"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("bf16"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "r.db"));
}

TEST(CliErrors, UnknownModelWritesNothing) {
    testing::TempDir dir;
    const auto r = run_trainscope("run --model alexnet --steps 2 --out " + (dir / "r.db").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("alexnet"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("seed-cnn"), std::string::npos) << "should list the known models";
    EXPECT_FALSE(std::filesystem::exists(dir / "r.db"));
}

TEST(CliErrors, MissingDatasetNamesPathAndFix) {
    testing::TempDir dir;
    const auto r = run_trainscope("run --steps 2 --data-dir " + (dir / "no-such-data").string() +
                                  " --out " + (dir / "r.db").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("no-such-data"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "r.db"));
}

TEST(CliErrors, UnwritableOutputPath) {
    const auto r = run_trainscope("run --steps 2 --out /nonexistent-folder/r.db");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("/nonexistent-folder"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--out"), std::string::npos) << r.output;
}

TEST(CliErrors, CudaBackendWithoutDevice) {
    if (!workloads::query_cuda_devices().devices.empty()) {
        GTEST_SKIP() << "this machine has a CUDA device; the no-device error cannot happen";
    }
    testing::TempDir dir;
    const auto r = run_trainscope("run --backend cuda --steps 2 --out " + (dir / "r.db").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--backend cuda"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--backend cpu"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "r.db"));
}

TEST(CliErrors, ReportOnMissingDatabase) {
    testing::TempDir dir;
    const auto r =
        run_trainscope("report " + (dir / "none.db").string() + " --csv " + (dir / "csv").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("none.db"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace trainscope
