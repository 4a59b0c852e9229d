#include <gtest/gtest.h>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "harness/pytorch/PyTorchProbe.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope {
namespace {

// The GPU path of a PyTorch cell: fp16 with autocast and GradScaler, pinned memory with
// non-blocking copies, and bf16 in a CUDA graph, each recorded with PyTorch's peak memory.
TEST(PyTorchGpu, CudaCellsRunWithTheirMemoryStrategies) {
    const std::string python = TRAINSCOPE_TEST_PYTHON;
    const auto torch = harness::probe_pytorch(python);
    if (!torch.found)
        GTEST_SKIP() << "PyTorch not found by " << python << " (pip install torch)";
    if (!torch.cuda_available)
        GTEST_SKIP() << "no CUDA device that PyTorch at " << python << " (torch "
                     << torch.torch_version << ") can use: this test needs a GPU";
    testing::TempDir dir;
    const auto db_path = dir / "r.db";
    const auto r = testing::run_trainscope(
        "run --framework pytorch --backend cuda --model resnet --depth 8 --steps 20 --warmup 5 "
        "--precision fp16,bf16 --host pinned --transfer overlap --cuda-graph off,on --python " +
        python + " -q --out " + db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    const auto runs = reports::load_runs(db, {}, {});
    ASSERT_EQ(runs.size(), 4u);
    for (const auto& run : runs) {
        if (run.axes.precision == "fp16" && run.axes.cuda_graph == "on") {
            EXPECT_EQ(run.status, reports::RunStatus::Skipped);
            continue;
        }
        ASSERT_EQ(run.status, reports::RunStatus::Ok) << run.cell_key << ": " << run.error;
        ASSERT_NE(run.find_metric("peak_mem_bytes"), nullptr);
        EXPECT_GT(run.find_metric("peak_mem_bytes")->value, 0.0);
    }
}

}  // namespace
}  // namespace trainscope
