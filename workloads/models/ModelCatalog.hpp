#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "workloads/models/Model.hpp"
#include "workloads/training/TrainingConfig.hpp"

namespace trainscope::workloads {

struct ModelParameterInfo {
    std::string name;
    std::string default_value;
    std::string allowed;  // human-readable: "avg, max", "6n+2: 8, 14, 20, ..."
};

struct ModelInfo {
    std::string name;
    std::string description;
    std::vector<ModelParameterInfo> parameters;
};

// Every model the engine can train (for `trainscope list models`).
std::vector<ModelInfo> model_catalog();

// Builds the layers of `model` for one sample of `input_shape` (CxHxW) and `classes`
// outputs; no backend memory is touched. Throws ConfigError naming the parameter for an
// unknown model, an unknown or invalid model parameter, or an input shape the model
// cannot take.
std::unique_ptr<Model> build_model(const std::string& model,
                                   const std::map<std::string, std::string>& model_params,
                                   const Shape& input_shape, int classes);

// Trainable parameters of a model for a given input.
std::int64_t parameter_count(const std::string& model,
                             const std::map<std::string, std::string>& model_params,
                             const Shape& input_shape, int classes);
// The same for a run's config: the input shape comes from the dataset (IDX header or
// input_shape for synthetic data).
std::int64_t parameter_count(const TrainingConfig& config);

}  // namespace trainscope::workloads
