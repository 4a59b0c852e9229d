#include "workloads/models/ModelCatalog.hpp"

#include "workloads/datasets/DatasetSelection.hpp"
#include "workloads/layers/ShapeCheck.hpp"
#include "workloads/models/LeNet5.hpp"
#include "workloads/models/ModelParams.hpp"
#include "workloads/models/ResNet.hpp"
#include "workloads/models/SeedCnn.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {
namespace {

std::unique_ptr<Model> build_checked(const std::string& model,
                                     const std::map<std::string, std::string>& model_params,
                                     const Shape& input_shape, int classes) {
    if (model == "seed-cnn") {
        ModelParams params(model, model_params, {});
        return make_seed_cnn(input_shape, classes);
    }
    if (model == "lenet5") {
        ModelParams params(model, model_params, {"pool"});
        const std::string pool = params.text("pool", "avg");
        if (pool != "avg" && pool != "max") {
            throw ConfigError("lenet5 parameter pool: '" + pool + "'; valid values are avg, max");
        }
        return make_lenet5(input_shape, classes, pool == "avg" ? PoolKind::average : PoolKind::max);
    }
    if (model == "resnet") {
        ModelParams params(model, model_params, {"depth", "width"});
        const int depth = params.integer("depth", 20, 1);
        if (depth < 8 || (depth - 2) % 6 != 0) {
            throw ConfigError("resnet parameter depth: " + std::to_string(depth) +
                              " is not 6n+2 with n >= 1; valid values are 8, 14, 20, 26, 32, "
                              "44, 56, 110, ...");
        }
        const int width = params.integer("width", 16, 1);
        return make_resnet(input_shape, classes, depth, width);
    }
    std::string names;
    for (const ModelInfo& info : model_catalog()) {
        names += (names.empty() ? "" : ", ") + info.name;
    }
    throw ConfigError("model: unknown value '" + model + "'; valid values are " + names);
}

}  // namespace

std::vector<ModelInfo> model_catalog() {
    return {
        {"seed-cnn",
         "conv 3x3x32 (valid) -> ReLU -> max pool 2 -> dense; the reference workload (Adam)",
         {}},
        {"lenet5",
         "conv 5x5x6 pad 2 -> ReLU -> pool 2 -> conv 5x5x16 -> ReLU -> pool 2 -> dense 120 -> "
         "dense 84 -> dense",
         {{"pool", "avg", "avg (classic), max"}}},
        {"resnet",
         "CIFAR-style ResNet: 3 stages of basic blocks (width, 2x, 4x channels), batch norm, "
         "global average pool, dense",
         {{"depth", "20", "6n+2 with n >= 1: 8, 14, 20, 26, 32, 44, 56, 110, ..."},
          {"width", "16", "channels of the first stage, integer >= 1"}}},
    };
}

std::unique_ptr<Model> build_model(const std::string& model,
                                   const std::map<std::string, std::string>& model_params,
                                   const Shape& input_shape, int classes) {
    try {
        return build_checked(model, model_params, input_shape, classes);
    } catch (const InputShapeError& error) {
        throw ConfigError("input_shape: model " + model + " cannot take " +
                          input_shape.to_string() + " (" + error.what() +
                          "); use a larger input_shape or another model");
    }
}

std::int64_t parameter_count(const std::string& model,
                             const std::map<std::string, std::string>& model_params,
                             const Shape& input_shape, int classes) {
    return build_model(model, model_params, input_shape, classes)->parameter_count();
}

std::int64_t parameter_count(const TrainingConfig& config) {
    return parameter_count(config.model, config.model_params, dataset_sample_shape(config),
                           dataset_classes(config));
}

}  // namespace trainscope::workloads
