#pragma once

#include "workloads/datasets/BatchLoader.hpp"
#include "workloads/models/Model.hpp"

namespace trainscope::workloads {

struct EvaluationScore {
    double accuracy = 0.0;
    double loss = 0.0;
};

// Accuracy and mean loss of the model (inference mode) over every sample of the loader.
EvaluationScore evaluate(Model& model, BatchLoader& loader, StepContext& context);

}  // namespace trainscope::workloads
