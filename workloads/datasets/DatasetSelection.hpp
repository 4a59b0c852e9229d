#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>

#include "workloads/datasets/ImageSource.hpp"
#include "workloads/training/TrainingConfig.hpp"

namespace trainscope::workloads {

struct TrainingData {
    std::unique_ptr<ImageSource> train;
    std::unique_ptr<ImageSource> test;
    int classes = 10;
    std::string description;  // "fashion-mnist (/usr/share/datasets/fashion-mnist)"
};

// The folder Debian's dataset-fashion-mnist installs into.
inline constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";

// Sizes of dataset=synthetic's training and test sets.
inline constexpr std::int64_t kSyntheticTrainImages = 50000;
inline constexpr std::int64_t kSyntheticTestImages = 10000;

// The folder of the IDX files config.dataset names (fashion-mnist, mnist with dataset_dir,
// or a folder); throws ConfigError naming the parameter. Not for synthetic data.
std::filesystem::path dataset_folder(const TrainingConfig& config);

// Loads the data config.dataset names: "fashion-mnist" (default folder unless
// dataset_dir is set), "mnist" (dataset_dir required), "synthetic" (input_shape,
// classes) or a folder with IDX files. Throws ConfigError naming the parameter or file.
TrainingData load_training_data(const TrainingConfig& config);

// The per-sample shape a run's data will have, reading at most an IDX header.
Shape dataset_sample_shape(const TrainingConfig& config);

// The number of classes a run's data has: 10 for the MNIST family, `classes` otherwise.
int dataset_classes(const TrainingConfig& config);

// Parses "CxHxW" (throws ConfigError naming input_shape).
Shape parse_input_shape(const std::string& text);

}  // namespace trainscope::workloads
