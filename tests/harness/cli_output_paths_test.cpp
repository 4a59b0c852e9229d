// Output paths are checked before any work starts, and nothing but a regular file is ever
// replaced (issue 15, "Output paths").
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fstream>
#include <sstream>

#include "CliProcess.hpp"
#include "TempDir.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

const std::string kTrace =
    std::string(TRAINSCOPE_SHARED_DIR) + "/traces/kineto/a100_two_streams_add.json.gz";

std::string read_all(const std::filesystem::path& file) {
    std::stringstream text;
    text << std::ifstream(file).rdbuf();
    return text.str();
}

mode_t kind_of(const std::filesystem::path& path) {
    struct stat st {};
    lstat(path.c_str(), &st);
    return st.st_mode & S_IFMT;
}

// A results database with one imported traced run, for report and export.
class OutputPaths : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto r = run_trainscope("import " + kTrace + " -o " + db().string());
        ASSERT_EQ(r.exit_code, 0) << r.output;
    }
    [[nodiscard]] std::filesystem::path db() const { return dir_ / "results.db"; }
    testing::TempDir dir_;
};

TEST_F(OutputPaths, EmptyOutputPathIsRefused) {
    const auto run = run_trainscope("run --steps 2 --out ''");
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find("--out is empty"), std::string::npos) << run.output;
    EXPECT_EQ(run.output.find("recorded"), std::string::npos) << run.output;
    const auto import = run_trainscope("import " + kTrace + " -o ''");
    EXPECT_EQ(import.exit_code, 2) << import.output;
    EXPECT_NE(import.output.find("-o is empty"), std::string::npos) << import.output;
}

TEST_F(OutputPaths, FifoDeviceAndLinkAreNeverReplaced) {
    const auto fifo = dir_ / "pipe";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const auto target = dir_ / "precious.txt";
    std::ofstream(target) << "keep me";
    const auto link = dir_ / "link.html";
    std::filesystem::create_symlink(target, link);
    // As root, a character device of our own (the null device's numbers); else /dev/null.
    std::filesystem::path device = dir_ / "null";
    if (mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
        device = "/dev/null";

    for (const auto& [path, kind, word] :
         {std::tuple{fifo, S_IFIFO, "FIFO"}, std::tuple{link, S_IFLNK, "symbolic link"},
          std::tuple{device, S_IFCHR, "character device"}}) {
        for (const std::string& command :
             {"report " + db().string() + " --html " + path.string(),
              "export " + db().string() + " --run 1 -o " + path.string()}) {
            const auto r = run_trainscope(command);
            EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
            EXPECT_NE(r.output.find(word), std::string::npos) << r.output;
            EXPECT_EQ(kind_of(path), static_cast<mode_t>(kind)) << path << " was replaced";
        }
    }
    EXPECT_EQ(read_all(target), "keep me");
    // The CSV set too: a link among the files refuses the whole set before writing any.
    const auto csv = dir_ / "csv";
    std::filesystem::create_directory(csv);
    std::filesystem::create_symlink(target, csv / "steps.csv");
    const auto r = run_trainscope("report " + db().string() + " --csv " + csv.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(kind_of(csv / "steps.csv"), static_cast<mode_t>(S_IFLNK));
    EXPECT_FALSE(std::filesystem::exists(csv / "runs.csv"));
    EXPECT_EQ(read_all(target), "keep me");
}

TEST_F(OutputPaths, ReplacingARegularFileStillWorksAndLeavesNoTemporaryFile) {
    const auto html = dir_ / "report.html";
    std::ofstream(html) << "old";
    const auto r = run_trainscope("report " + db().string() + " --html " + html.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(read_all(html).find("<html"), std::string::npos);
    for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
        EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
    }
}

TEST_F(OutputPaths, DeviceAsResultsDatabaseIsAClearErrorBeforeTraining) {
    const auto r = run_trainscope("run --steps 2 --out /dev/null");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("not a regular file"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("SQLite"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("step 1/2"), std::string::npos) << "trained before refusing";
    EXPECT_EQ(kind_of("/dev/null"), static_cast<mode_t>(S_IFCHR));
}

TEST_F(OutputPaths, OverlongFileNameIsRefusedBeforeAnyCellTrains) {
    const auto out = dir_ / (std::string(300, 'a') + ".db");
    const auto r = run_trainscope("run --steps 2 --out " + out.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("303 characters"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("step 1/2"), std::string::npos) << "trained before refusing";
    EXPECT_EQ(r.output.find("test accuracy"), std::string::npos) << r.output;
    const auto html = run_trainscope("report " + db().string() + " --html " +
                                     (dir_ / (std::string(300, 'h') + ".html")).string());
    EXPECT_EQ(html.exit_code, 2) << html.output;
    EXPECT_NE(html.output.find("characters"), std::string::npos) << html.output;
}

}  // namespace
}  // namespace trainscope
