#include "workloads/training/StepCountRecorder.hpp"

namespace trainscope::workloads {

StepCounts StepCountRecorder::now() const {
    StepCounts counts = backend_->counts();
    for (const TensorAllocator* tensors : tensors_) {
        counts.tensor_allocations += tensors->allocations();
        counts.tensor_frees += tensors->releases();
    }
    return counts;
}

void StepCountRecorder::open() {
    opened_ = now();
    opened_calls_ = backend_->calls();
}

StepCounts StepCountRecorder::close(bool measured) {
    const StepCounts window = now() - opened_;
    if (measured) {
        ++measured_;
        measured_sum_.allocations += window.allocations;
        measured_sum_.frees += window.frees;
        measured_sum_.tensor_allocations += window.tensor_allocations;
        measured_sum_.tensor_frees += window.tensor_frees;
        measured_sum_.synchronizations += window.synchronizations;
        measured_sum_.h2d_copies += window.h2d_copies;
        measured_sum_.backend_calls += window.backend_calls;
        const auto& calls = backend_->calls();
        for (std::size_t op = 0; op < kBackendOpCount; ++op) {
            measured_calls_[op] += calls[op] - opened_calls_[op];
        }
    }
    return window;
}

void StepCountRecorder::add_metrics(std::map<std::string, double>& metrics) const {
    if (measured_ == 0) {
        return;
    }
    const auto mean = [this](std::int64_t sum) {
        return static_cast<double>(sum) / static_cast<double>(measured_);
    };
    metrics["allocations_per_step"] = mean(measured_sum_.allocations);
    metrics["frees_per_step"] = mean(measured_sum_.frees);
    metrics["tensor_allocations_per_step"] = mean(measured_sum_.tensor_allocations);
    metrics["tensor_frees_per_step"] = mean(measured_sum_.tensor_frees);
    metrics["syncs_per_step"] = mean(measured_sum_.synchronizations);
    metrics["h2d_copies_per_step"] = mean(measured_sum_.h2d_copies);
    metrics["backend_calls_per_step"] = mean(measured_sum_.backend_calls);
    // Only the operations a step calls: a run's metrics list what its step is made of.
    for (std::size_t op = 0; op < kBackendOpCount; ++op) {
        if (measured_calls_[op] != 0) {
            metrics["op_" + std::string(kBackendOpNames[op]) + "_per_step"] =
                mean(measured_calls_[op]);
        }
    }
}

}  // namespace trainscope::workloads
