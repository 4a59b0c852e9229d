// trainscope-gui as a command: help and screenshots on a machine without a display (CI,
// a cluster login node), and a wrong --run named in the error.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QImage>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

namespace {

const std::string kBin = std::string(TRAINSCOPE_BINARY_DIR) + "/bin";
// No window system at all: what a headless machine offers.
const std::string kNoDisplay = "env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM ";

struct Result {
    int exit_code = -1;
    std::string output;
};

Result run(const std::string& command) {
    Result r;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr)
        return r;
    std::array<char, 4096> buffer{};
    while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr)
        r.output += buffer.data();
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

TEST(GuiCommandLine, HelpAndVersionNeedNoDisplay) {
    const Result help = run(kNoDisplay + kBin + "/trainscope-gui --help");
    EXPECT_EQ(help.exit_code, 0) << help.output;
    EXPECT_NE(help.output.find("Usage:"), std::string::npos) << help.output;
    EXPECT_NE(help.output.find("--screenshot"), std::string::npos) << help.output;
    EXPECT_NE(help.output.find("--run"), std::string::npos) << help.output;
    const Result version = run(kNoDisplay + kBin + "/trainscope-gui --version");
    EXPECT_EQ(version.exit_code, 0) << version.output;
    EXPECT_NE(version.output.find("trainscope-gui"), std::string::npos) << version.output;
}

TEST(GuiCommandLine, ScreenshotOfATracedRunNeedsNoDisplayAndAWrongRunIsNamed) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("trainscope-guicli-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    const std::string db = (dir / "r.db").string();
    const Result trained = run(kBin + "/trainscope run --backend cpu --steps 12 --warmup 2 " +
                               "--trace kernels -q --out " + db);
    ASSERT_EQ(trained.exit_code, 0) << trained.output;
    const std::string png = (dir / "timeline.png").string();
    const Result shot =
        run(kNoDisplay + kBin + "/trainscope-gui --screenshot " + png + " --view timeline " + db);
    ASSERT_EQ(shot.exit_code, 0) << shot.output;
    const QImage image(QString::fromStdString(png));
    EXPECT_FALSE(image.isNull());
    const Result wrong =
        run(kNoDisplay + kBin + "/trainscope-gui --screenshot " + png + " --run 42 " + db);
    EXPECT_EQ(wrong.exit_code, 2) << wrong.output;
    EXPECT_NE(wrong.output.find("no run 42"), std::string::npos) << wrong.output;
    std::filesystem::remove_all(dir);
}

}  // namespace
