#include <gtest/gtest.h>

#include "harness/matrix/Cell.hpp"
#include "harness/runner/CellConfig.hpp"

namespace trainscope::harness {
namespace {

Cell one_cell(const AxisValues& axes) {
    return expand_matrix(axes).front();
}

TEST(CellConfig, CpuMarksGpuOnlyAxesNotApplicable) {
    Cell cell = one_cell({});
    apply_backend_applicability(cell, "cpu");
    EXPECT_TRUE(cell.skip_reason.empty());
    EXPECT_EQ(cell.at("host_memory"), "n/a");
    EXPECT_EQ(cell.at("transfer"), "n/a");
    EXPECT_EQ(cell.at("placement"), "n/a");
    EXPECT_EQ(cell.at("cuda_graph"), "n/a");
    EXPECT_EQ(cell.at("device"), "n/a");
    EXPECT_EQ(cell.at("backend"), "cpu");
}

TEST(CellConfig, CpuSkipsWhatOnlyCudaCanDo) {
    for (const auto& [axis, value] :
         std::vector<std::pair<std::string, std::string>>{{"allocator", "async"},
                                                          {"allocator", "managed"},
                                                          {"host_memory", "pinned"},
                                                          {"transfer", "overlap"},
                                                          {"placement", "resident"},
                                                          {"cuda_graph", "on"}}) {
        Cell cell = one_cell({{axis, {value}}});
        apply_backend_applicability(cell, "cpu");
        EXPECT_NE(cell.skip_reason.find(axis + "=" + value), std::string::npos)
            << axis << " " << cell.skip_reason;
    }
    Cell pool = one_cell({{"allocator", {"pool"}}});
    apply_backend_applicability(pool, "cpu");
    EXPECT_TRUE(pool.skip_reason.empty()) << "the caching pool works over any backend";
}

TEST(CellConfig, CudaKeepsEveryAxis) {
    Cell cell = one_cell({{"host_memory", {"pinned"}}, {"allocator", {"async"}}});
    apply_backend_applicability(cell, "cuda");
    EXPECT_TRUE(cell.skip_reason.empty());
    EXPECT_EQ(cell.at("host_memory"), "pinned");
    const auto config = make_training_config(cell, {});
    EXPECT_EQ(config.backend, "cuda");
    EXPECT_EQ(config.allocator, "async");
    EXPECT_EQ(config.host_memory, "pinned");
}

TEST(CellConfig, CudaSkipsTheGraphCombinationsTheRunWouldRefuse) {
    Cell graph = one_cell({{"cuda_graph", {"on"}}, {"allocator", {"managed"}}});
    apply_backend_applicability(graph, "cuda");
    EXPECT_EQ(graph.skip_reason.rfind("cuda_graph:", 0), 0u) << graph.skip_reason;
    EXPECT_NE(graph.skip_reason.find("managed"), std::string::npos) << graph.skip_reason;
    Cell eager = one_cell({{"cuda_graph", {"off"}}, {"allocator", {"managed"}}});
    apply_backend_applicability(eager, "cuda");
    EXPECT_TRUE(eager.skip_reason.empty()) << eager.skip_reason;
    // Every precision runs with graphs, fp16's loss scaling included.
    for (const char* precision : {"fp32", "tf32", "fp16", "bf16", "fp64"}) {
        Cell runs = one_cell({{"cuda_graph", {"on"}}, {"precision", {precision}}});
        apply_backend_applicability(runs, "cuda");
        EXPECT_TRUE(runs.skip_reason.empty()) << precision << ": " << runs.skip_reason;
    }
}

TEST(CellConfig, ModelParametersOnlyForModelsThatTakeThem) {
    Cell seed = one_cell({{"depth", {"20"}}});
    apply_backend_applicability(seed, "cpu");
    EXPECT_EQ(seed.at("depth"), "n/a");
    EXPECT_TRUE(make_training_config(seed, {}).model_params.empty());
    Cell resnet = one_cell({{"model", {"resnet"}}, {"depth", {"20"}}, {"width", {"32"}}});
    apply_backend_applicability(resnet, "cpu");
    const auto config = make_training_config(resnet, {});
    EXPECT_EQ(config.model_params.at("depth"), "20");
    EXPECT_EQ(config.model_params.at("width"), "32");
    EXPECT_EQ(make_run_axes(resnet, {}).model_params, "depth=20,width=32");
}

TEST(CellConfig, CarriesLengthAndAxesIntoTheTrainingConfig) {
    Cell cell = one_cell({{"precision", {"bf16"}},
                          {"batch", {"128"}},
                          {"learning_rate", {"0.01"}},
                          {"optimizer", {"sgd"}},
                          {"activations", {"recompute"}}});
    apply_backend_applicability(cell, "cpu");
    RunLength length;
    length.steps = 42;
    length.seed = 9;
    length.threads = 2;
    const auto c = make_training_config(cell, length);
    EXPECT_EQ(c.precision, "bf16");
    EXPECT_EQ(c.batch, 128);
    EXPECT_DOUBLE_EQ(c.learning_rate, 0.01);
    EXPECT_EQ(c.optimizer, "sgd");
    EXPECT_EQ(c.activations, "recompute");
    EXPECT_EQ(c.steps, 42);
    EXPECT_EQ(c.seed, 9u);
    EXPECT_EQ(c.threads, 2);
}

}  // namespace
}  // namespace trainscope::harness
