#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "workloads/backend/StepCounts.hpp"
#include "workloads/memory/MemoryLedger.hpp"
#include "workloads/tensor/TensorClass.hpp"

namespace trainscope::workloads {

struct StepRecord {
    std::int64_t index = 0;  // 0-based over the whole run, warm-up included
    int epoch = 0;
    // The timed window (docs/workloads.md, "A step"): CUDA events on GPU, steady_clock on
    // CPU. Data staging is not in it.
    std::int64_t duration_ns = 0;
    double loss = 0.0;
    double loss_scale = 1.0;  // fp16 dynamic loss scale; 1 otherwise
    bool skipped = false;     // optimizer step skipped (fp16 overflow)
    bool warmup = false;
    // What the step's timed window asked of the backend (CountingBackend, TensorAllocator).
    StepCounts counts{};
    // Host time to stage this step's batch (gather, scale, queue the copy), spent before
    // the window opened: while the previous step ran, or before this one for an epoch's
    // first batch.
    std::int64_t data_ns = 0;
    // ranks > 1 (docs/distributed.md): this rank's all-reduce spans summed, and the part of
    // the step that waited for them once backward was done; 0 for a single rank.
    std::int64_t communication_ns = 0;
    std::int64_t exposed_communication_ns = 0;
};

struct EvalRecord {
    int epoch = 0;
    std::int64_t after_step = 0;     // steps done when evaluated
    std::int64_t train_time_ns = 0;  // training wall time so far, evaluation excluded
    double test_accuracy = 0.0;
    double test_loss = 0.0;
};

struct TrainingResult {
    std::vector<StepRecord> steps;
    std::vector<EvalRecord> evaluations;
    std::int64_t images_trained = 0;
    std::int64_t train_time_ns = 0;  // sum of step durations, warm-up included; no data staging
    std::int64_t peak_tensor_bytes = 0;
    // The bytes of each tensor class when all tensors together were at their peak
    // (indexed by tensor_class_index; sums to the peak of the run's shared ledger).
    ClassBytes peak_bytes_by_class{};
    // The most bytes each class held at any moment of the run.
    ClassBytes max_bytes_by_class{};
    std::int64_t parameter_count = 0;
    bool emulated = false;  // precision emulated by rounding (Backend::emulates)
    // Backend facts and choices (device name, library versions, chosen algorithms...).
    std::map<std::string, std::string> environment;
    // Extra numbers a backend measures (e.g. h2d_bytes), name -> value.
    std::map<std::string, double> extra_metrics;
};

// Told of each step as it finishes; returns false to stop training early (the
// harness's statistical stopping rule, Ctrl-C).
class TrainingObserver {
  public:
    virtual ~TrainingObserver() = default;
    virtual bool on_step(const StepRecord& step) = 0;
    virtual void on_eval(const EvalRecord& eval) { (void)eval; }
    // A test hook: when wants_parameters(), after each step (its time taken) the master
    // parameters in their flat layout, read back to the host (the data-parallel tests
    // check that every rank holds the same ones).
    virtual bool wants_parameters() const { return false; }
    virtual void on_parameters(const std::vector<double>& masters) { (void)masters; }
    // Asked once, before the first tensor is made: who hears every change of the bytes in
    // use per tensor class (the harness records them as counter series). Must outlive
    // the run.
    virtual MemoryListener* memory_listener() { return nullptr; }
};

}  // namespace trainscope::workloads
