#include "workloads/optim/Optimizer.hpp"

#include "workloads/optim/Adam.hpp"
#include "workloads/optim/Sgd.hpp"
#include "workloads/training/ConfigError.hpp"
#include "workloads/training/TrainingConfig.hpp"

namespace trainscope::workloads {

std::unique_ptr<Optimizer> make_optimizer(const TrainingConfig& config,
                                          const FlatParameters& parameters, StepContext& context) {
    if (!(config.learning_rate > 0.0)) {
        throw ConfigError("learning_rate: " + std::to_string(config.learning_rate) +
                          " must be positive");
    }
    switch (config.optimizer) {
        case OptimizerKind::adam: {
            AdamSettings settings;
            settings.learning_rate = config.learning_rate;
            return std::make_unique<Adam>(parameters, context, settings);
        }
        case OptimizerKind::sgd: {
            SgdSettings settings;
            settings.learning_rate = config.learning_rate;
            settings.momentum = config.momentum;
            settings.weight_decay = config.weight_decay;
            return std::make_unique<Sgd>(parameters, context, settings);
        }
    }
    throw ConfigError("optimizer: unknown value " +
                      std::to_string(static_cast<int>(config.optimizer)));
}

}  // namespace trainscope::workloads
