#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "../workloads/workloads_test_support.hpp"
#include "TempDir.hpp"
#include "harness/cli/UsageError.hpp"
#include "harness/executor/Subprocess.hpp"
#include "harness/matrix/Cell.hpp"
#include "harness/pytorch/Framework.hpp"
#include "harness/pytorch/PyTorchApplicability.hpp"
#include "harness/pytorch/PyTorchProbe.hpp"
#include "harness/runner/CellConfig.hpp"
#include "workloads/datasets/BatchLoader.hpp"
#include "workloads/models/ModelCatalog.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::harness {
namespace {

Cell cpu_cell(const AxisValues& axes) {
    Cell cell = expand_matrix(axes).front();
    apply_backend_applicability(cell, workloads::BackendKind::cpu);
    return cell;
}

PyTorchCapabilities cpu_torch() {
    PyTorchCapabilities torch;
    torch.python = "python3";
    torch.found = true;
    torch.torch_version = "1.13.1";
    return torch;
}

TEST(FrameworkAxis, DefaultsToTrainscopeAndExpandsBothFrameworks) {
    EXPECT_EQ(expand_matrix({}).front().at("framework"), "trainscope");
    const auto cells = expand_matrix({{"framework", {"trainscope", "pytorch"}}});
    ASSERT_EQ(cells.size(), 2u);
    EXPECT_EQ(parse_framework(cells[0].at("framework")), Framework::trainscope);
    EXPECT_EQ(parse_framework(cells[1].at("framework")), Framework::pytorch);
    EXPECT_NE(cells[0].key(), cells[1].key());
    EXPECT_EQ(make_run_axes(cells[1], RunLength{}).framework, "pytorch");
}

TEST(FrameworkAxis, AnUnknownFrameworkIsRefusedNamingTheValidOnes) {
    try {
        expand_matrix({{"framework", {"jax"}}});
        FAIL() << "jax accepted";
    } catch (const UsageError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("--framework"), std::string::npos) << message;
        EXPECT_NE(message.find("trainscope, pytorch"), std::string::npos) << message;
    }
    EXPECT_THROW(parse_framework("jax"), workloads::ConfigError);
}

TEST(PyTorchApplicability, WithoutTorchTheCellIsSkippedWithTheAdvice) {
    PyTorchCapabilities missing;
    missing.python = "/opt/py/bin/python";
    missing.missing_reason = "PyTorch not found by /opt/py/bin/python: pip install torch";
    EXPECT_EQ(pytorch_skip_reason(cpu_cell({{"framework", {"pytorch"}}}), missing),
              "PyTorch not found by /opt/py/bin/python: pip install torch");
}

TEST(PyTorchApplicability, SettingsWithoutAnEquivalentAreSkippedWithTheirReason) {
    const PyTorchCapabilities torch = cpu_torch();
    EXPECT_EQ(pytorch_skip_reason(cpu_cell({{"framework", {"pytorch"}}}), torch), "");
    EXPECT_EQ(pytorch_skip_reason(cpu_cell({{"precision", {"fp64"}}}), torch), "");
    EXPECT_EQ(pytorch_skip_reason(cpu_cell({{"precision", {"bf16"}}}), torch), "");
    const auto reason_for = [&](const AxisValues& axes) {
        return pytorch_skip_reason(cpu_cell(axes), torch);
    };
    EXPECT_NE(reason_for({{"precision", {"tf32"}}}).find("precision=tf32"), std::string::npos);
    EXPECT_NE(reason_for({{"precision", {"fp16"}}}).find("bf16 only"), std::string::npos);
    PyTorchCapabilities newer = torch;
    newer.cpu_autocast_fp16 = true;
    EXPECT_EQ(pytorch_skip_reason(cpu_cell({{"precision", {"fp16"}}}), newer), "");
    EXPECT_NE(reason_for({{"allocator", {"device"}}}).find("allocator=device"), std::string::npos);
}

TEST(PyTorchApplicability, CudaCellsNeedATorchWithCudaAndSkipManagedMemory) {
    PyTorchCapabilities torch = cpu_torch();
    Cell cell = expand_matrix({{"framework", {"pytorch"}}, {"allocator", {"managed"}}}).front();
    apply_backend_applicability(cell, workloads::BackendKind::cuda);
    EXPECT_NE(pytorch_skip_reason(cell, torch).find("has no CUDA device"), std::string::npos);
    torch.cuda_available = true;
    torch.cuda_devices = 1;
    EXPECT_NE(pytorch_skip_reason(cell, torch).find("allocator=managed"), std::string::npos);
}

// The worker builds every model layer for layer: the same parameter count as trainscope's
// for every model, parameter and input shape.
TEST(PyTorchWorker, ParameterCountsMatchTrainscopesForEveryModel) {
    const std::string python = TRAINSCOPE_TEST_PYTHON;
    const std::vector<std::pair<std::string, std::map<std::string, std::string>>> models{
        {"seed-cnn", {}},
        {"lenet5", {{"pool", "avg"}}},
        {"lenet5", {{"pool", "max"}}},
        {"resnet", {{"depth", "8"}, {"width", "16"}}},
        {"resnet", {{"depth", "14"}, {"width", "8"}}},
        {"resnet", {{"depth", "20"}, {"width", "16"}}}};
    const std::vector<std::pair<std::string, workloads::Shape>> shapes{
        {"1x28x28", workloads::Shape{1, 28, 28}}, {"3x32x32", workloads::Shape{3, 32, 32}}};
    nlohmann::json specs = nlohmann::json::array();
    std::vector<std::int64_t> expected;
    for (const auto& [model, params] : models) {
        for (const auto& [text, shape] : shapes) {
            specs.push_back({{"model", model},
                             {"model_params", params},
                             {"input_shape", text},
                             {"classes", 10}});
            expected.push_back(workloads::parameter_count(model, params, shape, 10));
        }
    }
    // One interpreter start for all twelve: importing torch takes seconds.
    const ProcessOutput out =
        run_process({python, pytorch_worker_script().string(), "--parameters", specs.dump()});
    if (out.exit_code != 0 && out.err.find("No module named 'torch'") != std::string::npos)
        GTEST_SKIP() << "PyTorch not found by " << python << " (apt-get install python3-torch)";
    ASSERT_EQ(out.exit_code, 0) << out.err;
    std::istringstream lines(out.out);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        std::int64_t count = -1;
        ASSERT_TRUE(lines >> count) << "no count for " << specs[i].dump() << " in:\n" << out.out;
        EXPECT_EQ(count, expected[i]) << specs[i].dump();
    }
}

// "The same data": on synthetic data the worker makes trainscope's images and labels (the
// same generator, seed and rule) and shuffles them alike, so the first training batch is
// the engine's own, bit for bit, pixels scaled to fp32 as its loader scales them.
TEST(PyTorchWorker, TheFirstSyntheticBatchIsTrainscopesBitForBit) {
    const std::string python = TRAINSCOPE_TEST_PYTHON;
    workloads::TrainingConfig config;
    config.dataset = "synthetic";
    config.input_shape = "3x7x5";
    config.classes = 6;
    config.batch = 24;
    config.seed = 0xfeedfacecafeULL;  // past 32 bits: the worker's arithmetic is 64-bit
    const nlohmann::json job{{"dataset", "synthetic"},
                             {"dataset_dir", ""},
                             {"input_shape", config.input_shape},
                             {"classes", config.classes},
                             {"synthetic_train", workloads::kSyntheticTrainImages},
                             {"synthetic_test", workloads::kSyntheticTestImages},
                             {"seed", config.seed},
                             {"batch", config.batch},
                             {"precision", "fp32"}};
    testing::TempDir dir;
    std::ofstream(dir / "job.json") << job.dump();
    const ProcessOutput out =
        run_process({python, pytorch_worker_script().string(), "--first-batch",
                     (dir / "job.json").string(), (dir / "batch.bin").string()});
    if (out.exit_code != 0 && out.err.find("No module named 'torch'") != std::string::npos)
        GTEST_SKIP() << "PyTorch not found by " << python << " (apt-get install python3-torch)";
    ASSERT_EQ(out.exit_code, 0) << out.err;
    std::ifstream file(dir / "batch.bin", std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(file), {}};

    const workloads::TrainingData data = workloads::load_training_data(config);
    workloads::BatchLoader loader(*data.train, config.batch, true, config.seed);
    loader.start_epoch();
    workloads::testing::CpuHarness h(workloads::Precision::fp32);
    const workloads::Batch batch = loader.load(h.context, 0);
    std::vector<float> images(static_cast<std::size_t>(batch.images.elements()));
    std::vector<std::int32_t> labels(static_cast<std::size_t>(batch.labels.elements()));
    h.backend.copy_to_host(batch.images, images.data());
    h.backend.copy_to_host(batch.labels, labels.data());
    const std::size_t image_bytes = images.size() * sizeof(float);
    ASSERT_EQ(bytes.size(), image_bytes + labels.size() * sizeof(std::int32_t));
    std::vector<float> torch_images(images.size());
    std::vector<std::int32_t> torch_labels(labels.size());
    std::memcpy(torch_images.data(), bytes.data(), image_bytes);
    std::memcpy(torch_labels.data(), bytes.data() + image_bytes,
                labels.size() * sizeof(std::int32_t));
    EXPECT_EQ(torch_labels, labels);
    EXPECT_EQ(std::memcmp(torch_images.data(), images.data(), image_bytes), 0);
    std::size_t differing = 0;
    for (std::size_t i = 0; i < images.size(); ++i)
        differing += torch_images[i] != images[i];
    EXPECT_EQ(differing, 0u) << "of " << images.size() << " pixels";
    // Not a degenerate batch: several classes, pixels of many values.
    EXPECT_GT(std::set<std::int32_t>(labels.begin(), labels.end()).size(), 2u);
    EXPECT_GT(std::set<float>(images.begin(), images.end()).size(), 50u);
}

}  // namespace
}  // namespace trainscope::harness
