#include "harness/runner/CellConfig.hpp"

#include <fmt/format.h>

#include "harness/environment/HostEnvironment.hpp"
#include "harness/matrix/AxisCatalog.hpp"
#include "workloads/distributed/RankThreads.hpp"
#include "workloads/models/ModelCatalog.hpp"
#include "workloads/training/CudaGraphSupport.hpp"

namespace trainscope::harness {

namespace {

bool model_takes(const std::string& model, const std::string& parameter) {
    for (const auto& info : workloads::model_catalog()) {
        if (info.name != model)
            continue;
        for (const auto& p : info.parameters) {
            if (p.name == parameter)
                return true;
        }
    }
    return false;
}

// The parsed axis, or `fallback` where the cell records it as n/a.
template <class E, class Parse>
E parse_applicable(const Cell& cell, const char* axis, Parse parse, E fallback) {
    const std::string& text = cell.at(axis);
    return text == kNotApplicable ? fallback : parse(text);
}

}  // namespace

void apply_backend_applicability(Cell& cell, workloads::BackendKind backend) {
    cell.values["backend"] = workloads::to_string(backend);
    for (const char* parameter : {"depth", "width"}) {
        if (cell.values.count(parameter) != 0 && !model_takes(cell.at("model"), parameter)) {
            cell.values[parameter] = kNotApplicable;
        }
    }
    const workloads::Allocator allocator = workloads::parse_allocator(cell.at("allocator"));
    if (backend != workloads::BackendKind::cpu) {
        // What the run would refuse with a ConfigError is known now: skip, saying why.
        if (parse_on_off(cell.at("cuda_graph")) && cell.skip_reason.empty())
            cell.skip_reason = workloads::cuda_graph_refusal(allocator);
        return;
    }
    cell.values["device"] = kNotApplicable;
    for (const auto& axis : axis_catalog()) {
        auto it = cell.values.find(axis.name);
        if (it == cell.values.end())
            continue;
        if (axis.gpu_only) {
            if (it->second != axis.default_value && cell.skip_reason.empty()) {
                cell.skip_reason =
                    fmt::format("{}={} needs the CUDA backend", axis.name, it->second);
            }
            it->second = kNotApplicable;
        }
    }
    if (workloads::allocator_needs_cuda(allocator) && cell.skip_reason.empty()) {
        cell.skip_reason =
            "allocator=" + workloads::to_string(allocator) + " needs the CUDA backend";
    }
}

workloads::TrainingConfig make_training_config(const Cell& cell, const RunLength& length) {
    workloads::TrainingConfig c;
    c.model = cell.at("model");
    for (const char* parameter : {"depth", "width"}) {
        const auto it = cell.values.find(parameter);
        if (it != cell.values.end() && it->second != kNotApplicable) {
            c.model_params[parameter] = it->second;
        }
    }
    c.dataset = cell.at("dataset");
    c.dataset_dir = length.dataset_dir;
    c.input_shape = length.input_shape;
    c.classes = length.classes;
    c.precision = workloads::parse_precision(cell.at("precision"));
    c.backend = workloads::to_string(workloads::parse_backend_kind(cell.at("backend")));
    const auto& device = cell.at("device");
    c.device = device == kNotApplicable ? 0 : std::stoi(device);
    c.batch = std::stoi(cell.at("batch"));
    c.steps = length.steps;
    c.epochs = length.epochs;
    c.warmup_steps = length.warmup_steps;
    c.threads = length.threads;
    c.seed = length.seed;
    c.optimizer = workloads::parse_optimizer(cell.at("optimizer"));
    c.learning_rate = std::stod(cell.at("learning_rate"));
    c.target_accuracy = length.target_accuracy;
    c.eval_every_steps = length.eval_every_steps;
    c.allocator = workloads::parse_allocator(cell.at("allocator"));
    c.host_memory =
        parse_applicable(cell, "host_memory", workloads::parse_host_memory, c.host_memory);
    c.transfer = parse_applicable(cell, "transfer", workloads::parse_transfer, c.transfer);
    c.placement = parse_applicable(cell, "placement", workloads::parse_placement, c.placement);
    c.activations = workloads::parse_activations(cell.at("activations"));
    c.cuda_graph = parse_applicable(cell, "cuda_graph", parse_on_off, c.cuda_graph);
    c.ranks = std::stoi(cell.at("ranks"));
    c.bucket_mb = std::stod(cell.at("bucket_mb"));
    c.overlap = workloads::parse_overlap(cell.at("overlap"));
    return c;
}

reports::RunAxes make_run_axes(const Cell& cell, const RunLength& length) {
    reports::RunAxes a;
    a.framework = cell.at("framework");
    a.model = cell.at("model");
    std::string params;
    for (const char* parameter : {"depth", "width"}) {
        const auto it = cell.values.find(parameter);
        if (it != cell.values.end() && it->second != kNotApplicable) {
            if (!params.empty())
                params += ',';
            params += fmt::format("{}={}", parameter, it->second);
        }
    }
    a.model_params = params;
    a.dataset = cell.at("dataset");
    a.precision = cell.at("precision");
    a.batch = std::stoll(cell.at("batch"));
    a.optimizer = cell.at("optimizer");
    a.learning_rate = std::stod(cell.at("learning_rate"));
    a.backend = cell.at("backend");
    a.device = cell.at("device");
    a.allocator = cell.at("allocator");
    a.host_memory = cell.at("host_memory");
    a.transfer = cell.at("transfer");
    a.placement = cell.at("placement");
    a.activations = cell.at("activations");
    a.cuda_graph = cell.at("cuda_graph");
    a.trace_level = cell.at("trace_level");
    a.ranks = std::stoll(cell.at("ranks"));
    a.bucket_mb = std::stod(cell.at("bucket_mb"));
    a.overlap = cell.at("overlap");
    // A multi-rank cell's ranks share this node's cores unless --threads says otherwise;
    // each rank records what it used once it ran (run_cell).
    a.threads = length.threads > 0 ? length.threads
                                   : workloads::default_rank_threads(
                                         hardware_threads(), static_cast<int>(a.ranks.value_or(1)));
    a.seed = static_cast<std::int64_t>(length.seed);
    return a;
}

}  // namespace trainscope::harness
