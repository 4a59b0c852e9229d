#include "reports/store/RunRecord.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace trainscope::reports {

std::string_view to_string(RunStatus status) {
    switch (status) {
        case RunStatus::Ok:
            return "ok";
        case RunStatus::Failed:
            return "failed";
        case RunStatus::Skipped:
            return "skipped";
    }
    return "failed";
}

RunStatus run_status_from_string(std::string_view text) {
    if (text == "ok")
        return RunStatus::Ok;
    if (text == "failed")
        return RunStatus::Failed;
    if (text == "skipped")
        return RunStatus::Skipped;
    throw std::invalid_argument("unknown run status '" + std::string(text) + "'");
}

const std::vector<std::string>& axis_names() {
    static const std::vector<std::string> names{
        "model",         "model_params", "dataset",    "precision",   "batch",       "optimizer",
        "learning_rate", "backend",      "device",     "allocator",   "host_memory", "transfer",
        "placement",     "activations",  "cuda_graph", "trace_level", "threads",     "seed",
        "ranks",         "bucket_mb",    "overlap",    "framework"};
    return names;
}

namespace {
std::string text_of(const std::optional<std::int64_t>& v) {
    return v ? std::to_string(*v) : "";
}
std::string text_of(const std::optional<double>& v) {
    if (!v)
        return "";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", *v);
    return buffer;
}
}  // namespace

std::string axis_value(const RunAxes& a, std::string_view name) {
    if (name == "framework")
        return a.framework;
    if (name == "model")
        return a.model;
    if (name == "model_params")
        return a.model_params;
    if (name == "dataset")
        return a.dataset;
    if (name == "precision")
        return a.precision;
    if (name == "batch")
        return text_of(a.batch);
    if (name == "optimizer")
        return a.optimizer;
    if (name == "learning_rate")
        return text_of(a.learning_rate);
    if (name == "backend")
        return a.backend;
    if (name == "device")
        return a.device;
    if (name == "allocator")
        return a.allocator;
    if (name == "host_memory")
        return a.host_memory;
    if (name == "transfer")
        return a.transfer;
    if (name == "placement")
        return a.placement;
    if (name == "activations")
        return a.activations;
    if (name == "cuda_graph")
        return a.cuda_graph;
    if (name == "trace_level")
        return a.trace_level;
    if (name == "threads")
        return text_of(a.threads);
    if (name == "seed")
        return text_of(a.seed);
    if (name == "ranks")
        return text_of(a.ranks);
    if (name == "bucket_mb")
        return text_of(a.bucket_mb);
    if (name == "overlap")
        return a.overlap;
    throw std::invalid_argument("unknown axis '" + std::string(name) + "'");
}

const Metric* RunRecord::find_metric(std::string_view name) const {
    for (const auto& m : metrics) {
        if (m.name == name)
            return &m;
    }
    return nullptr;
}

}  // namespace trainscope::reports
