#include "workloads/training/Evaluation.hpp"

#include <utility>

#include "workloads/annotation/NvtxRange.hpp"

namespace trainscope::workloads {

EvaluationScore evaluate(Model& model, BatchLoader& loader, StepContext& context) {
    PhaseRange range("evaluation");
    const bool was_training = context.training;
    context.training = false;
    CrossEntropyTotals totals;
    Tensor no_gradient;
    for (std::int64_t b = 0; b < loader.batches_per_epoch(); ++b) {
        Batch batch = loader.load(context, b);
        const Tensor images = context.to_storage(std::move(batch.images));
        const Tensor logits = model.forward(context, images);
        context.backend.softmax_cross_entropy(logits, batch.labels, 1.0, no_gradient, totals);
    }
    context.training = was_training;
    EvaluationScore score;
    if (totals.count > 0) {
        score.accuracy = static_cast<double>(totals.correct) / static_cast<double>(totals.count);
        score.loss = totals.loss_sum / static_cast<double>(totals.count);
    }
    return score;
}

}  // namespace trainscope::workloads
