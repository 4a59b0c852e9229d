#include "harness/runner/CellRunner.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cmath>
#include <ctime>
#include <exception>

#include "harness/environment/HostEnvironment.hpp"
#include "harness/runner/RunMetrics.hpp"
#include "workloads/training/ConfigError.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::harness {

namespace {
std::string utc_now() {
    return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
}
}  // namespace

reports::RunRecord run_cell(const Cell& cell, const RunLength& length,
                            workloads::TrainingObserver* observer) {
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
    const workloads::TrainingConfig config = make_training_config(cell, length);
    try {
        const workloads::TrainingResult result = workloads::run_training(config, observer);
        record.emulated = result.emulated;
        for (const auto& [key, value] : result.environment)
            record.environment[key] = value;
        record.metrics = compute_run_metrics(config, result);
        record.steps = to_step_rows(result);
        record.evaluations = to_eval_rows(result);
        for (const auto& s : result.steps) {
            if (!std::isfinite(s.loss) && !s.skipped) {
                record.status = reports::RunStatus::Failed;
                record.error = fmt::format("diverged: the loss is {} at step {}", s.loss, s.index);
                break;
            }
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
