#include "harness/pytorch/PyTorchCell.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "harness/environment/HostEnvironment.hpp"
#include "harness/isolation/ScratchDir.hpp"
#include "harness/matrix/AxisCatalog.hpp"
#include "harness/pytorch/PyTorchProbe.hpp"
#include "harness/pytorch/WorkerSession.hpp"
#include "harness/runner/RunMetrics.hpp"
#include "harness/runner/TracingOverhead.hpp"
#include "profiler/formats/KinetoImporter.hpp"
#include "reports/metrics/MetricTags.hpp"
#include "reports/trace/TraceMetrics.hpp"
#include "workloads/backend/BackendKind.hpp"
#include "workloads/datasets/DatasetSelection.hpp"
#include "workloads/models/ModelCatalog.hpp"

namespace trainscope::harness {

namespace {

using nlohmann::json;

// The cell as the worker reads it: the engine's own config, so both sides train from
// the same parsed values (defaults such as SGD's momentum included).
json worker_job(const Cell& cell, const workloads::TrainingConfig& config,
                const std::filesystem::path& trace_file) {
    const auto text_or = [&](const char* axis, const std::string& fallback) {
        const std::string& value = cell.at(axis);
        return value == kNotApplicable ? fallback : value;
    };
    json j;
    j["model"] = config.model;
    j["model_params"] = config.model_params;
    j["dataset"] = config.dataset;
    j["dataset_dir"] =
        config.dataset == "synthetic" ? std::string() : workloads::dataset_folder(config).string();
    j["input_shape"] = config.input_shape;
    j["classes"] = workloads::dataset_classes(config);
    j["synthetic_train"] = workloads::kSyntheticTrainImages;
    j["synthetic_test"] = workloads::kSyntheticTestImages;
    j["precision"] = workloads::to_string(config.precision);
    j["backend"] = config.backend;
    j["device"] = config.device;
    j["batch"] = config.batch;
    j["steps"] = config.steps;
    j["epochs"] = config.epochs;
    j["warmup_steps"] = config.warmup_steps;
    j["threads"] = config.threads > 0 ? config.threads : hardware_threads();
    j["seed"] = config.seed;
    j["optimizer"] = workloads::to_string(config.optimizer);
    j["learning_rate"] = config.learning_rate;
    j["momentum"] = config.momentum;
    j["weight_decay"] = config.weight_decay;
    j["eval_every_steps"] = config.eval_every_steps;
    j["initial_loss_scale"] = config.initial_loss_scale;
    j["loss_scale_growth_interval"] = config.loss_scale_growth_interval;
    j["evaluate"] = config.evaluate;
    j["allocator"] = workloads::to_string(config.allocator);
    j["host_memory"] = text_or("host_memory", "pageable");
    j["transfer"] = text_or("transfer", "sync");
    j["placement"] = text_or("placement", "stream");
    j["activations"] = workloads::to_string(config.activations);
    j["cuda_graph"] = config.cuda_graph;
    j["trace_level"] = cell.at("trace_level");
    j["trace_file"] = trace_file.string();
    j["controlled"] = true;  // steps reported one by one, the harness answering each
    return j;
}

workloads::TrainingResult to_training_result(const json& r) {
    workloads::TrainingResult result;
    for (const json& s : r.at("steps"))
        result.steps.push_back(worker_step(s));
    for (const json& e : r.at("evaluations"))
        result.evaluations.push_back(worker_eval(e));
    result.images_trained = r.at("images_trained").get<std::int64_t>();
    result.train_time_ns = r.at("train_time_ns").get<std::int64_t>();
    result.peak_tensor_bytes = r.at("peak_memory_bytes").get<std::int64_t>();
    result.parameter_count = r.at("parameter_count").get<std::int64_t>();
    result.extra_metrics["steps_per_epoch"] = r.at("steps_per_epoch").get<double>();
    for (const auto& [key, value] : r.at("environment").items())
        result.environment["pytorch_" + key] = value.get<std::string>();
    return result;
}

// The last lines of the worker's stderr: where Python says what went wrong.
std::string error_tail(const std::string& err) {
    constexpr std::size_t kKeep = 1500;
    return err.size() <= kKeep ? err : "..." + err.substr(err.size() - kKeep);
}

std::string read_text(const std::filesystem::path& file) {
    std::ifstream in(file);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The tracing-overhead probe over the worker: the same job untraced, with evaluation off
// and the probe's length, its tracer switched on and off between steps by the probe.
std::optional<TracingOverhead> probe_pytorch_tracing(const std::vector<std::string>& argv,
                                                     const std::filesystem::path& job_file,
                                                     const std::filesystem::path& stderr_file,
                                                     json job, double median_step_ns) {
    WorkerSteering steering;
    return run_tracing_probe(
        median_step_ns, [&](bool on) { steering.request_tracing(on); },
        [&](InterleavedTracingProbe& probe) {
            job["steps"] = job.at("warmup_steps").get<std::int64_t>() + probe.steps_needed();
            job["epochs"] = 0;
            job["eval_every_steps"] = 0;
            job["evaluate"] = false;
            job["trace_file"] = "";
            std::ofstream(job_file) << job.dump();
            const int exit_code = run_worker_session(argv, stderr_file, probe, steering);
            if (exit_code != 0) {
                throw std::runtime_error(fmt::format("the PyTorch worker exited with code {}: {}",
                                                     exit_code,
                                                     error_tail(read_text(stderr_file))));
            }
        });
}

}  // namespace

std::vector<TimeInterval> run_pytorch_cell(const Cell& cell,
                                           const workloads::TrainingConfig& config,
                                           MeasurementController& controller,
                                           const std::string& python, reports::RunRecord& record) {
    // Bad user input (an unknown model, a missing data folder) is the same error on
    // either framework, and found here before Python starts.
    const std::int64_t trainscope_parameters = workloads::parameter_count(config);
    const std::filesystem::path worker = pytorch_worker_script();
    ScratchDir scratch;
    const auto job_file = scratch.path() / "pytorch_job.json";
    const auto result_file = scratch.path() / "pytorch_result.json";
    const auto stderr_file = scratch.path() / "pytorch_stderr.txt";
    const bool traced = cell.at("trace_level") != "off";
    const auto trace_file = traced ? scratch.path() / "kineto.json" : std::filesystem::path();
    json job = worker_job(cell, config, trace_file);
    std::ofstream(job_file) << job.dump();
    record.environment["pytorch_worker"] = worker.string();
    record.environment["pytorch_interpreter"] = python;
    const std::vector<std::string> argv = {python, worker.string(), job_file.string(),
                                           result_file.string()};
    try {
        WorkerSteering steering;
        const int exit_code = run_worker_session(argv, stderr_file, controller, steering);
        if (exit_code != 0 || !std::filesystem::exists(result_file)) {
            record.status = reports::RunStatus::Failed;
            record.error =
                fmt::format("the PyTorch worker ({} {}) exited with code {}: {}", python,
                            worker.string(), exit_code, error_tail(read_text(stderr_file)));
            return {};
        }
        std::ifstream in(result_file);
        const json parsed = json::parse(in);
        const workloads::TrainingResult result = to_training_result(parsed);
        std::vector<TimeInterval> measured;
        for (const json& s : parsed.at("steps")) {
            if (!s.at("warmup").get<bool>()) {
                const auto begin = s.at("start_ns").get<std::int64_t>();
                measured.push_back({begin, begin + s.at("duration_ns").get<std::int64_t>()});
            }
        }
        for (const auto& [key, value] : result.environment)
            record.environment[key] = value;
        record.metrics = compute_run_metrics(config, result);
        if (!workloads::is_backend(config.backend, workloads::BackendKind::cuda)) {
            // torch reports no CPU tensor peak; a 0 would read as a measurement.
            std::erase_if(record.metrics, [](const reports::Metric& m) {
                return m.name == reports::metric_tag::peak_mem_bytes;
            });
        }
        record.environment["trainscope_parameter_count"] = std::to_string(trainscope_parameters);
        record.steps = to_step_rows(result);
        record.evaluations = to_eval_rows(result);
        if (traced) {
            profiler::Trace trace = profiler::import_kineto_trace(trace_file);
            for (auto& m : reports::compute_trace_metrics(trace)) {
                if (m.name != reports::metric_tag::gpu_busy_pct ||
                    workloads::is_backend(config.backend, workloads::BackendKind::cuda))
                    record.metrics.push_back(std::move(m));
            }
            record.trace = std::move(trace);
            if (controller.divergence().empty()) {
                record_tracing_overhead(
                    record, "in a second worker process after the run, toggling torch.profiler",
                    [&] {
                        return probe_pytorch_tracing(argv, job_file, stderr_file, job,
                                                     median_measured_step_ns(result));
                    });
            }
        }
        if (result.parameter_count != trainscope_parameters) {
            record.status = reports::RunStatus::Failed;
            record.error =
                fmt::format("the PyTorch model differs from trainscope's: {} parameters against {}",
                            result.parameter_count, trainscope_parameters);
        }
        return measured;
    } catch (const std::exception& e) {
        record.status = reports::RunStatus::Failed;
        record.error = std::string("PyTorch cell: ") + e.what();
    }
    return {};
}

}  // namespace trainscope::harness
