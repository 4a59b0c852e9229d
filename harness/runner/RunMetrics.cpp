#include "harness/runner/RunMetrics.hpp"

#include <cmath>

#include "reports/metrics/MetricTags.hpp"
#include "reports/stats/SampleStatistics.hpp"

namespace trainscope::harness {

std::vector<reports::Metric> compute_run_metrics(const workloads::TrainingConfig& config,
                                                 const workloads::TrainingResult& result) {
    std::vector<double> step_ms;
    std::vector<double> data_ms;
    std::int64_t data_ns = 0;
    std::int64_t measured_ns = 0;
    std::int64_t skipped = 0;
    for (const auto& s : result.steps) {
        if (s.skipped)
            ++skipped;
        data_ns += s.data_ns;
        if (s.warmup)
            continue;
        data_ms.push_back(static_cast<double>(s.data_ns) * 1e-6);
        step_ms.push_back(static_cast<double>(s.duration_ns) * 1e-6);
        measured_ns += s.duration_ns;
    }
    const reports::SampleStatistics stats = reports::summarize(step_ms);
    std::vector<reports::Metric> m;
    if (measured_ns > 0) {
        const double images = static_cast<double>(step_ms.size()) * config.batch;
        m.push_back({reports::metric_tag::images_per_s,
                     images / (static_cast<double>(measured_ns) * 1e-9)});
    }
    if (stats.count > 0) {
        m.push_back({reports::metric_tag::step_ms_median, stats.median});
        m.push_back({reports::metric_tag::step_ms_median_ci_low, stats.median_ci95_low});
        m.push_back({reports::metric_tag::step_ms_median_ci_high, stats.median_ci95_high});
        m.push_back({reports::metric_tag::step_ms_mean, stats.mean});
        m.push_back({reports::metric_tag::step_ms_stdev, stats.stdev});
        m.push_back({reports::metric_tag::step_ms_p5, stats.p5});
        m.push_back({reports::metric_tag::step_ms_p95, stats.p95});
        m.push_back({reports::metric_tag::step_ms_ci_low, stats.ci95_low});
        m.push_back({reports::metric_tag::step_ms_ci_high, stats.ci95_high});
        m.push_back({reports::metric_tag::step_rse, stats.relative_standard_error});
    }
    m.push_back({reports::metric_tag::step_count, static_cast<double>(stats.count)});
    if (!data_ms.empty()) {
        m.push_back({reports::metric_tag::data_ms_median, reports::summarize(data_ms).median});
    }
    m.push_back({reports::metric_tag::data_time_s, static_cast<double>(data_ns) * 1e-9});
    m.push_back(
        {reports::metric_tag::train_time_s, static_cast<double>(result.train_time_ns) * 1e-9});
    m.push_back(
        {reports::metric_tag::peak_mem_bytes, static_cast<double>(result.peak_tensor_bytes)});
    m.push_back({reports::metric_tag::skipped_steps, static_cast<double>(skipped)});
    m.push_back(
        {reports::metric_tag::parameter_count, static_cast<double>(result.parameter_count)});
    if (!result.steps.empty()) {
        m.push_back({reports::metric_tag::final_loss, result.steps.back().loss});
    }
    if (!result.evaluations.empty()) {
        const auto& last = result.evaluations.back();
        m.push_back({reports::metric_tag::test_accuracy, last.test_accuracy});
        m.push_back({reports::metric_tag::test_loss, last.test_loss});
        if (config.target_accuracy) {
            for (const auto& e : result.evaluations) {
                if (e.test_accuracy >= *config.target_accuracy) {
                    m.push_back({reports::metric_tag::time_to_target_s,
                                 static_cast<double>(e.train_time_ns) * 1e-9});
                    break;
                }
            }
        }
    }
    for (const auto& [name, value] : result.extra_metrics) {
        bool known = false;
        for (const auto& existing : m)
            known = known || existing.name == name;
        if (!known)
            m.push_back({name, value});
    }
    return m;
}

std::vector<reports::StepRow> to_step_rows(const workloads::TrainingResult& result) {
    std::vector<reports::StepRow> rows;
    rows.reserve(result.steps.size());
    for (const auto& s : result.steps) {
        rows.push_back({s.index, s.epoch, s.duration_ns,
                        std::isfinite(s.loss) ? std::optional<double>(s.loss) : std::nullopt,
                        s.loss_scale, s.skipped, s.warmup, s.data_ns});
    }
    return rows;
}

std::vector<reports::EvalRow> to_eval_rows(const workloads::TrainingResult& result) {
    std::vector<reports::EvalRow> rows;
    for (const auto& e : result.evaluations) {
        rows.push_back({e.after_step, e.epoch, e.train_time_ns, e.test_accuracy, e.test_loss});
    }
    return rows;
}

}  // namespace trainscope::harness
