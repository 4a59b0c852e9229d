// Screenshots of every view on real GPU traces recorded by others (imported with the CLI)
// are not blank: the GUI renders what `trainscope import` stores, not only our own data.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QImage>
#include <QSet>
#include <cstdio>
#include <filesystem>
#include <string>

namespace {

const std::string kBin = std::string(TRAINSCOPE_BINARY_DIR) + "/bin";
const std::string kTraces = std::string(TRAINSCOPE_SHARED_DIR) + "/traces";

int run(const std::string& command) {
    const int status = std::system((command + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int distinct_colours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) colours.insert(image.pixel(x, y));
    }
    return static_cast<int>(colours.size());
}

class RealTraceScreenshots : public ::testing::TestWithParam<const char*> {};

TEST_P(RealTraceScreenshots, EveryViewRendersTheImportedTrace) {
    const auto dir = std::filesystem::temp_directory_path() / ("trainscope-shots-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    const auto db = (dir / "imported.db").string();
    std::filesystem::remove(db);
    ASSERT_EQ(run(kBin + "/trainscope import " + kTraces + "/" + GetParam() + " -o " + db), 0);
    for (const char* view : {"timeline", "runs", "utilization", "kernels"}) {
        const auto png = (dir / (std::string(view) + ".png")).string();
        ASSERT_EQ(run("QT_QPA_PLATFORM=offscreen " + kBin + "/trainscope-gui --screenshot " + png + " --view " +
                      view + " --run 1 " + db),
                  0)
            << view;
        QImage image(QString::fromStdString(png));
        ASSERT_FALSE(image.isNull()) << view;
        EXPECT_GT(image.width(), 400) << view;
        EXPECT_GT(distinct_colours(image), 20) << view << " looks blank";
    }
    std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, RealTraceScreenshots,
                         ::testing::Values("kineto/v100_resnet50_training.json.gz",
                                           "kineto/h100_bert_small_inference.json.gz",
                                           "nsys/a100_saxpy_mpi_cuda.sqlite"));

}  // namespace
