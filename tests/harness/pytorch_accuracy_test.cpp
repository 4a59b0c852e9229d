#include <gtest/gtest.h>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "harness/pytorch/PyTorchProbe.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope {
namespace {

// The PyTorch cell trains for real: seed-cnn, one epoch of Fashion-MNIST at batch 64
// with Adam at 1e-3, reaches the accuracy trainscope's own engine reaches. Label `long`:
// an epoch takes minutes on two busy cores, so scripts/test leaves it out.
TEST(PyTorchTraining, SeedCnnReachesTestAccuracy084InOneEpoch) {
    const std::string python = TRAINSCOPE_TEST_PYTHON;
    if (!harness::probe_pytorch(python).found)
        GTEST_SKIP() << "PyTorch not found by " << python << " (apt-get install python3-torch)";
    testing::TempDir dir;
    const auto db_path = dir / "r.db";
    const auto r = testing::run_trainscope(
        "run --framework pytorch --backend cpu --model seed-cnn --batch 64 --epochs 1 --python " +
        python + " -q --out " + db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    const auto runs = reports::load_runs(db, {}, {});
    ASSERT_EQ(runs.size(), 1u);
    ASSERT_EQ(runs[0].status, reports::RunStatus::Ok) << runs[0].error;
    const auto* accuracy = runs[0].find_metric("test_accuracy");
    ASSERT_NE(accuracy, nullptr);
    EXPECT_GE(accuracy->value, 0.84);
}

}  // namespace
}  // namespace trainscope
