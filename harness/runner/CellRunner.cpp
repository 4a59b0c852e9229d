#include "harness/runner/CellRunner.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <ctime>
#include <exception>

#include "harness/environment/HostEnvironment.hpp"
#include "harness/runner/MeasurementController.hpp"
#include "harness/runner/RunMetrics.hpp"
#include "workloads/training/ConfigError.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::harness {

namespace {
std::string utc_now() {
    return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
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
    try {
        const workloads::TrainingResult result = workloads::run_training(config, &controller);
        record.emulated = result.emulated;
        for (const auto& [key, value] : result.environment)
            record.environment[key] = value;
        record.metrics = compute_run_metrics(config, result);
        record.steps = to_step_rows(result);
        record.evaluations = to_eval_rows(result);
        if (!options.stopping.fixed_length) {
            const bool met = controller.stop_decision() == StopDecision::NoiseTargetMet;
            record.metrics.push_back({"noise_target_met", met ? 1.0 : 0.0, ""});
        }
        if (!controller.divergence().empty()) {
            record.status = reports::RunStatus::Failed;
            record.error = controller.divergence();
        }
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
