#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <fstream>

#include "CliProcess.hpp"
#include "TempDir.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

// Without Slurm's commands, --executor slurm is one line naming what is missing, exit 2,
// and no file written.
TEST(CliExecutor, SlurmWithoutSbatchIsOneLineAndWritesNothing) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const std::string command = std::string("env PATH=/nonexistent ") + TRAINSCOPE_CLI +
                                " run --batch 4,8 --steps 2 --executor slurm --out " + db.string() +
                                " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char buffer[4096];
    while (fgets(buffer, sizeof buffer, pipe) != nullptr)
        output += buffer;
    const int status = pclose(pipe);
    EXPECT_EQ(WEXITSTATUS(status), 2) << output;
    EXPECT_NE(output.find("sbatch not found"), std::string::npos) << output;
    const auto errors =
        std::count_if(output.begin(), output.end(), [](char c) { return c == '\n'; });
    EXPECT_LE(errors, 2) << "the backend notice and the one error line: " << output;
    EXPECT_FALSE(std::filesystem::exists(db));
    EXPECT_FALSE(std::filesystem::exists(dir / "r.slurm"));
}

TEST(CliExecutor, SlurmFlagsWithoutTheSlurmExecutorAreRefused) {
    testing::TempDir dir;
    const auto r = run_trainscope("run --steps 2 --partition gpu --out " + (dir / "r.db").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("need --executor slurm"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "r.db"));
}

TEST(CliExecutor, ExecutorTableInTheMatrixFileIsReadAndCheckedByName) {
    testing::TempDir dir;
    const auto matrix = dir / "m.toml";
    std::ofstream(matrix) << "[axes]\nbatch = [4]\n[executor]\nkind = \"slurm\"\nqueue = \"x\"\n";
    const auto r =
        run_trainscope("run " + matrix.string() + " --steps 2 --out " + (dir / "r.db").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("unknown executor setting 'queue'"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace trainscope
