#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "harness/cli/UsageError.hpp"
#include "harness/isolation/CellJob.hpp"
#include "harness/matrix/AxisCatalog.hpp"
#include "harness/matrix/Cell.hpp"
#include "harness/runner/CellConfig.hpp"

namespace trainscope::harness {
namespace {

using workloads::Activations;
using workloads::Allocator;
using workloads::BackendKind;
using workloads::HostMemory;
using workloads::OptimizerKind;
using workloads::Precision;

Cell one_cell(const AxisValues& axes) {
    return expand_matrix(axes).front();
}

TEST(CellConfig, CpuMarksGpuOnlyAxesNotApplicable) {
    Cell cell = one_cell({});
    apply_backend_applicability(cell, BackendKind::cpu);
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
        apply_backend_applicability(cell, BackendKind::cpu);
        EXPECT_NE(cell.skip_reason.find(axis + "=" + value), std::string::npos)
            << axis << " " << cell.skip_reason;
    }
    Cell pool = one_cell({{"allocator", {"pool"}}});
    apply_backend_applicability(pool, BackendKind::cpu);
    EXPECT_TRUE(pool.skip_reason.empty()) << "the caching pool works over any backend";
}

TEST(CellConfig, CudaKeepsEveryAxis) {
    Cell cell = one_cell({{"host_memory", {"pinned"}}, {"allocator", {"async"}}});
    apply_backend_applicability(cell, BackendKind::cuda);
    EXPECT_TRUE(cell.skip_reason.empty());
    EXPECT_EQ(cell.at("host_memory"), "pinned");
    const auto config = make_training_config(cell, {});
    EXPECT_EQ(config.backend, "cuda");
    EXPECT_EQ(config.allocator, Allocator::async);
    EXPECT_EQ(config.host_memory, HostMemory::pinned);
}

TEST(CellConfig, CudaSkipsTheGraphCombinationsTheRunWouldRefuse) {
    Cell graph = one_cell({{"cuda_graph", {"on"}}, {"allocator", {"managed"}}});
    apply_backend_applicability(graph, BackendKind::cuda);
    EXPECT_EQ(graph.skip_reason.rfind("cuda_graph:", 0), 0u) << graph.skip_reason;
    EXPECT_NE(graph.skip_reason.find("managed"), std::string::npos) << graph.skip_reason;
    Cell eager = one_cell({{"cuda_graph", {"off"}}, {"allocator", {"managed"}}});
    apply_backend_applicability(eager, BackendKind::cuda);
    EXPECT_TRUE(eager.skip_reason.empty()) << eager.skip_reason;
    // Every precision runs with graphs, fp16's loss scaling included.
    for (const char* precision : {"fp32", "tf32", "fp16", "bf16", "fp64"}) {
        Cell runs = one_cell({{"cuda_graph", {"on"}}, {"precision", {precision}}});
        apply_backend_applicability(runs, BackendKind::cuda);
        EXPECT_TRUE(runs.skip_reason.empty()) << precision << ": " << runs.skip_reason;
    }
}

TEST(CellConfig, ModelParametersOnlyForModelsThatTakeThem) {
    Cell seed = one_cell({{"depth", {"20"}}});
    apply_backend_applicability(seed, BackendKind::cpu);
    EXPECT_EQ(seed.at("depth"), "n/a");
    EXPECT_TRUE(make_training_config(seed, {}).model_params.empty());
    Cell resnet = one_cell({{"model", {"resnet"}}, {"depth", {"20"}}, {"width", {"32"}}});
    apply_backend_applicability(resnet, BackendKind::cpu);
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
    apply_backend_applicability(cell, BackendKind::cpu);
    RunLength length;
    length.steps = 42;
    length.seed = 9;
    length.threads = 2;
    const auto c = make_training_config(cell, length);
    EXPECT_EQ(c.precision, Precision::bf16);
    EXPECT_EQ(c.batch, 128);
    EXPECT_DOUBLE_EQ(c.learning_rate, 0.01);
    EXPECT_EQ(c.optimizer, OptimizerKind::sgd);
    EXPECT_EQ(c.activations, Activations::recompute);
    EXPECT_EQ(c.steps, 42);
    EXPECT_EQ(c.seed, 9u);
    EXPECT_EQ(c.threads, 2);
}

// The text a cell records is what the database and the CSV files store; the typed
// config read from it formats back to the same text. Every choice of every axis, on
// both backends, so no spelling changes in either direction.
TEST(CellConfig, StoredSpellingsAreTheCellsTextAndRoundTripThroughTheTypedConfig) {
    AxisValues axes;
    for (const auto& axis : axis_catalog()) {
        if (axis.kind == AxisInfo::Kind::Choice && axis.name != "backend")
            axes[axis.name] = axis.values;
    }
    std::size_t checked = 0;
    for (const BackendKind backend : workloads::kBackendKinds) {
        for (Cell cell : expand_matrix(axes)) {
            apply_backend_applicability(cell, backend);
            const reports::RunAxes stored = make_run_axes(cell, {});
            EXPECT_EQ(stored.precision, cell.at("precision"));
            EXPECT_EQ(stored.optimizer, cell.at("optimizer"));
            EXPECT_EQ(stored.backend, workloads::to_string(backend));
            EXPECT_EQ(stored.allocator, cell.at("allocator"));
            EXPECT_EQ(stored.host_memory, cell.at("host_memory"));
            EXPECT_EQ(stored.transfer, cell.at("transfer"));
            EXPECT_EQ(stored.placement, cell.at("placement"));
            EXPECT_EQ(stored.activations, cell.at("activations"));
            EXPECT_EQ(stored.cuda_graph, cell.at("cuda_graph"));
            EXPECT_EQ(stored.trace_level, cell.at("trace_level"));
            if (!cell.skip_reason.empty())
                continue;  // never turned into a config
            const workloads::TrainingConfig c = make_training_config(cell, {});
            EXPECT_EQ(workloads::to_string(c.precision), stored.precision);
            EXPECT_EQ(workloads::to_string(c.optimizer), stored.optimizer);
            EXPECT_EQ(c.backend, stored.backend);
            EXPECT_EQ(workloads::to_string(c.allocator), stored.allocator);
            EXPECT_EQ(workloads::to_string(c.activations), stored.activations);
            const bool cuda = backend == BackendKind::cuda;
            EXPECT_EQ(cuda ? workloads::to_string(c.host_memory) : "n/a", stored.host_memory);
            EXPECT_EQ(cuda ? workloads::to_string(c.transfer) : "n/a", stored.transfer);
            EXPECT_EQ(cuda ? workloads::to_string(c.placement) : "n/a", stored.placement);
            EXPECT_EQ(cuda ? (c.cuda_graph ? "on" : "off") : "n/a", stored.cuda_graph);
            ++checked;
        }
    }
    EXPECT_GT(checked, 100u);
}

TEST(CellConfig, ChoiceAxesListTheEnginesSpellingsAndDefaults) {
    const AxisInfo* allocator = find_axis("allocator");
    ASSERT_NE(allocator, nullptr);
    EXPECT_EQ(allocator->values, (std::vector<std::string>{"pool", "device", "async", "managed"}));
    EXPECT_EQ(allocator->default_value, "pool");
    EXPECT_EQ(find_axis("backend")->values, (std::vector<std::string>{"auto", "cpu", "cuda"}));
    EXPECT_EQ(find_axis("precision")->values,
              (std::vector<std::string>{"fp32", "tf32", "fp16", "bf16", "fp64"}));
    EXPECT_EQ(find_axis("trace_level")->values,
              (std::vector<std::string>{"off", "kernels", "full"}));
    EXPECT_EQ(find_axis("cuda_graph")->values, (std::vector<std::string>{"off", "on"}));
}

// The child parses the job file's axis text into the typed config: a value outside the
// catalog is refused when the file is read, naming the axis and the valid values.
TEST(CellConfig, AJobFileWithAnUnknownAxisValueIsRefusedWhenRead) {
    const auto file = std::filesystem::temp_directory_path() /
                      ("trainscope-cell-job-test-" + std::to_string(::getpid()) + ".json");
    CellJob job;
    job.cell = one_cell({});
    apply_backend_applicability(job.cell, BackendKind::cpu);
    write_cell_job(job, file);
    EXPECT_EQ(read_cell_job(file).cell.key(), job.cell.key());
    job.cell.values["allocator"] = "slab";
    write_cell_job(job, file);
    try {
        (void)read_cell_job(file);
        ADD_FAILURE() << "read a job with allocator=slab";
    } catch (const UsageError& error) {
        const std::string message = error.what();
        for (const char* word : {"allocator", "slab", "pool, device, async, managed"})
            EXPECT_NE(message.find(word), std::string::npos) << word << " not in: " << message;
    }
    std::filesystem::remove(file);
}

}  // namespace
}  // namespace trainscope::harness
