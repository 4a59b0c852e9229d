#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "workloads/backend/CountingBackend.hpp"
#include "workloads/backend/StepCounts.hpp"
#include "workloads/memory/TensorAllocator.hpp"

namespace trainscope::workloads {

// Counts what happens inside each step's timed window (from the step timer's start to
// its close) and averages it over the measured steps: the run metrics
// allocations_per_step, frees_per_step, tensor_allocations_per_step,
// tensor_frees_per_step, syncs_per_step, h2d_copies_per_step, backend_calls_per_step and
// op_<operation>_per_step (docs/formats.md).
class StepCountRecorder {
  public:
    explicit StepCountRecorder(const CountingBackend& backend) : backend_(&backend) {}

    // Tensor allocators whose tensors count (the run's, and a captured step's arena).
    void watch(const TensorAllocator& tensors) { tensors_.push_back(&tensors); }

    void open();
    // The counts since open(); a measured (non-warm-up) window joins the averages.
    StepCounts close(bool measured);

    // Means over the measured windows; nothing before the first measured window.
    void add_metrics(std::map<std::string, double>& metrics) const;

  private:
    StepCounts now() const;

    const CountingBackend* backend_;
    std::vector<const TensorAllocator*> tensors_;
    StepCounts opened_;
    std::array<std::int64_t, kBackendOpCount> opened_calls_{};
    std::int64_t measured_ = 0;
    StepCounts measured_sum_;
    std::array<std::int64_t, kBackendOpCount> measured_calls_{};
};

}  // namespace trainscope::workloads
