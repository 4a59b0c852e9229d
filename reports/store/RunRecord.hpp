#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profiler/trace/StreamedTrace.hpp"
#include "profiler/trace/Trace.hpp"
#include "reports/memory/MemoryPeak.hpp"

namespace trainscope::reports {

enum class RunStatus { Ok, Failed, Skipped };
std::string_view to_string(RunStatus status);
RunStatus run_status_from_string(std::string_view text);

// The axes of a matrix cell, in the project's vocabulary. Text axes are "n/a" where
// they do not apply to the backend (a CPU run has no host staging memory).
struct RunAxes {
    std::string framework;  // "trainscope", "pytorch"; empty for imported traces
    std::string model;
    std::string model_params;  // "depth=20,width=16"; empty when the model has none
    std::string dataset;
    std::string precision;
    std::optional<std::int64_t> batch;
    std::string optimizer;
    std::optional<double> learning_rate;
    std::string backend;
    std::string device;
    std::string allocator;
    std::string host_memory;
    std::string transfer;
    std::string placement;
    std::string activations;
    std::string cuda_graph;
    std::string trace_level;
    std::optional<std::int64_t> threads;
    std::optional<std::int64_t> seed;
    // Data parallelism (schema 3; absent in older files, read as one rank).
    std::optional<std::int64_t> ranks;
    std::optional<double> bucket_mb;
    std::string overlap;
};

// Axis names in their documented column order, and their values as text (for CSV
// columns, GUI grouping, summary tables).
const std::vector<std::string>& axis_names();
std::string axis_value(const RunAxes& axes, std::string_view name);

struct Metric {
    Metric() = default;
    // Writers give the tag and the value only: the store writes and reads the catalog's
    // unit (reports::metric_unit); only a tag outside the catalog keeps a unit given here.
    Metric(std::string name_, double value_, std::string unit_ = {})
        : name(std::move(name_)), value(value_), unit(std::move(unit_)) {}

    std::string name;  // stable tag, e.g. "images_per_s", "step_ms_median"
    double value = 0.0;
    std::string unit;  // as read: the catalog's
};

struct StepRow {
    std::int64_t step = 0;
    std::int64_t epoch = 0;
    std::int64_t duration_ns = 0;
    std::optional<double> loss;
    double loss_scale = 1.0;
    bool skipped = false;
    bool warmup = false;
    // Host time to stage the step's batch, outside its timed window (schema 2; empty for
    // imported runs).
    std::optional<std::int64_t> data_ns = std::nullopt;
};

struct EvalRow {
    std::int64_t after_step = 0;
    std::int64_t epoch = 0;
    std::int64_t train_time_ns = 0;
    std::optional<double> test_accuracy;
    std::optional<double> test_loss;
};

// One matrix cell's result, as stored: written whole in one transaction.
struct RunRecord {
    std::int64_t id = 0;  // assigned by the store
    std::optional<std::int64_t> matrix_id;
    std::string cell_key;  // canonical text of the cell's axes; resume matches on it
    RunStatus status = RunStatus::Ok;
    std::string error;
    std::string source = "trainscope";  // or "kineto", "nsys" for imported traces
    std::string started_utc;
    std::string finished_utc;
    RunAxes axes;
    bool emulated = false;
    std::map<std::string, std::string> environment;
    std::vector<Metric> metrics;
    std::vector<StepRow> steps;
    std::vector<EvalRow> evaluations;
    std::optional<profiler::Trace> trace;
    // Instead of `trace`, a trace whose activities are written as they pass (a huge
    // import): the writer consumes it and adds the trace's metrics (compute_trace_metrics)
    // to `metrics` as it stores them.
    std::shared_ptr<profiler::StreamedTrace> streamed_trace;
    // Tensor memory at the run's peak by class (schema 4; read with the metrics): rank 0's
    // (a one-process run's), and each other rank's of a multi-rank run (schema 5), by rank.
    std::optional<MemoryPeak> memory_peak;
    std::vector<MemoryPeak> other_rank_memory_peaks;

    [[nodiscard]] const Metric* find_metric(std::string_view name) const;
};

}  // namespace trainscope::reports
