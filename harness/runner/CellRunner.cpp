#include "harness/runner/CellRunner.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <exception>
#include <limits>
#include <optional>
#include <vector>

#include "harness/capture/CellCapture.hpp"
#include "harness/capture/MeasuredStepClock.hpp"
#include "harness/environment/HostEnvironment.hpp"
#include "harness/isolation/RankLaunch.hpp"
#include "harness/pytorch/Framework.hpp"
#include "harness/pytorch/PyTorchCell.hpp"
#include "harness/runner/MeasurementController.hpp"
#include "harness/runner/MemoryPeakRecord.hpp"
#include "harness/runner/RooflineFacts.hpp"
#include "harness/runner/RunMetrics.hpp"
#include "harness/runner/TracingOverhead.hpp"
#include "profiler/capture/HostClock.hpp"
#include "profiler/capture/TraceLevel.hpp"
#include "reports/metrics/MetricTags.hpp"
#include "reports/roofline/Roofline.hpp"
#include "reports/stats/SampleStatistics.hpp"
#include "reports/trace/TraceMetrics.hpp"
#include "workloads/devices/DeviceQuery.hpp"
#include "workloads/training/ConfigError.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::harness {

namespace {
std::string utc_now() {
    return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
}
// The CUDA ordinal the cell trains on and its PCI bus id, for NVML to find the same GPU
// (NVML's index order need not be CUDA's). Queried here, in the cell's own process, so
// CUDA_VISIBLE_DEVICES numbers the ordinal as the training's cudaSetDevice does.
CaptureDevice capture_device(const workloads::TrainingConfig& config) {
    CaptureDevice device;
    device.cuda_ordinal = config.device;
    if (!workloads::is_backend(config.backend, workloads::BackendKind::cuda))
        return device;
    for (const workloads::CudaDeviceInfo& info : workloads::query_cuda_devices().devices) {
        if (info.ordinal == config.device)
            device.pci_bus_id = info.pci_bus_id;
    }
    return device;
}

void add_capture_records(reports::RunRecord& record, CapturedCell& captured) {
    for (auto& m : captured.telemetry_metrics)
        record.metrics.push_back(std::move(m));
    for (const auto& [key, value] : captured.metadata)
        record.environment[key] = value;
    for (std::size_t i = 0; i < captured.warnings.size(); ++i) {
        record.environment["capture_warning_" + std::to_string(i + 1)] = captured.warnings[i];
    }
}

// What the stopping rule and the divergence check decided, alike for both frameworks.
void add_measurement_outcome(reports::RunRecord& record, const MeasurementController& controller,
                             const StoppingRule& stopping) {
    if (!stopping.fixed_length) {
        const bool met = controller.stop_decision() == StopDecision::NoiseTargetMet;
        record.metrics.push_back({reports::metric_tag::noise_target_met, met ? 1.0 : 0.0});
    }
    if (!controller.divergence().empty()) {
        record.status = reports::RunStatus::Failed;
        record.error = controller.divergence();
    }
}

}  // namespace

reports::RunRecord run_cell(const Cell& cell, const CellRunOptions& options) {
    const RunLength& length = options.length;
    reports::RunRecord record;
    record.cell_key = cell.key();
    record.axes = make_run_axes(cell, length);
    record.started_utc = utc_now();
    record.environment = probe_host_environment();
    if (!cell.skip_reason.empty()) {
        record.status = reports::RunStatus::Skipped;
        record.error = cell.skip_reason;
        return record;
    }
    workloads::TrainingConfig config = make_training_config(cell, length);
    if (!options.stopping.fixed_length) {
        // The stopping rule ends training; the step count is only a backstop.
        config.steps = std::numeric_limits<std::int32_t>::max();
        config.epochs = 0;
    }
    MeasurementController controller(options.stopping, options.fault, record.cell_key,
                                     options.progress);
    if (parse_framework(cell.at("framework")) == Framework::pytorch) {
        // Host load and GPU telemetry as for the engine's cells; the worker traces itself.
        CellCapture capture(profiler::TraceLevel::Off,
                            workloads::parse_backend_kind(config.backend), capture_device(config));
        const std::vector<TimeInterval> measured =
            run_pytorch_cell(cell, config, controller, options.length.python, record);
        CapturedCell captured = capture.stop(measured, static_cast<std::int64_t>(measured.size()));
        add_capture_records(record, captured);
        add_measurement_outcome(record, controller, options.stopping);
        record.finished_utc = utc_now();
        return record;
    }
    const auto level =
        profiler::parse_trace_level(cell.at("trace_level")).value_or(profiler::TraceLevel::Off);
    try {
        // Before the capture: its counting pass and triad stay out of the trace.
        const RooflineFacts roofline =
            measure_roofline_facts(config, options.host_bandwidth_bytes_per_s);
        CellCapture capture(level, workloads::parse_backend_kind(config.backend),
                            capture_device(config));
        MeasuredStepClock step_clock(&controller, profiler::host_clock_now_ns);
        step_clock.set_memory_timeline(capture.memory_timeline());
        const workloads::TrainingResult result = workloads::run_training(config, &step_clock);
        CapturedCell captured = capture.stop(step_clock.intervals(), step_clock.measured_steps());
        if (captured.trace && config.ranks > 1)
            mark_trace_rank(*captured.trace, launched_rank().value_or(0), config.ranks);
        record.emulated = result.emulated;
        for (const auto& [key, value] : result.environment)
            record.environment[key] = value;
        if (const auto threads = result.environment.find("threads");
            threads != result.environment.end())
            record.axes.threads = std::stoll(threads->second);  // what this rank used
        record.metrics = compute_run_metrics(config, result);
        record.metrics.insert(record.metrics.end(), roofline.metrics.begin(),
                              roofline.metrics.end());
        // Each rank of a CUDA cell has a GPU of its own; ranks on the CPU share its cores.
        const int devices =
            workloads::is_backend(config.backend, workloads::BackendKind::cuda) ? config.ranks : 1;
        for (reports::Metric& m : reports::roofline_run_metrics(record.metrics, devices))
            record.metrics.push_back(std::move(m));
        for (const auto& [key, value] : roofline.environment)
            record.environment[key] = value;
        record.steps = to_step_rows(result);
        record.memory_peak = memory_peak_record(result, captured.trace ? &*captured.trace : nullptr,
                                                captured.memory_peak_t_ns);
        add_capture_records(record, captured);
        if (captured.trace) {
            for (auto& m : reports::compute_trace_metrics(*captured.trace)) {
                if (m.name != reports::metric_tag::gpu_busy_pct ||
                    workloads::is_backend(config.backend, workloads::BackendKind::cuda))
                    record.metrics.push_back(std::move(m));
            }
            record.trace = std::move(captured.trace);
            if (config.ranks > 1) {
                // Each rank would size its probe from its own step times, and ranks whose
                // all-reduce counts differ wait for each other forever.
                record.environment["tracing_overhead_probe"] =
                    "not run: a multi-rank cell's ranks would have to agree on its length";
            } else if (controller.divergence().empty()) {
                // After the capture has stopped: the probe runs tracers of its own.
                record_tracing_overhead(record, "in the cell's process after its run", [&] {
                    return measure_tracing_overhead(config, level, median_measured_step_ns(result));
                });
            }
        }
        record.evaluations = to_eval_rows(result);
        add_measurement_outcome(record, controller, options.stopping);
    } catch (const workloads::ConfigError&) {
        throw;
    } catch (const std::exception& e) {
        record.status = reports::RunStatus::Failed;
        record.error = e.what();
    }
    record.finished_utc = utc_now();
    return record;
}

}  // namespace trainscope::harness
