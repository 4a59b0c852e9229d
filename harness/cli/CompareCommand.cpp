#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include "harness/cli/Commands.hpp"
#include "harness/cli/NumberCheck.hpp"
#include "harness/cli/UsageError.hpp"
#include "reports/metrics/RunComparison.hpp"
#include "reports/metrics/ScalingEfficiency.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope::harness {

namespace {

struct CompareOptions {
    std::string database;
    std::string against;
    std::optional<std::int64_t> baseline;
    std::optional<std::int64_t> matrix;
    double same_within = reports::kDefaultSameWithin;
};

// The axes in which the compared runs differ: what names a cell in the table.
std::string label_of(const reports::RunRecord& run, const std::vector<reports::RunRecord>& all) {
    std::string label;
    for (const auto& axis : reports::axis_names()) {
        const std::string value = reports::axis_value(run.axes, axis);
        bool varies = false;
        for (const auto& other : all)
            varies = varies || reports::axis_value(other.axes, axis) != value;
        if (varies)
            label += (label.empty() ? "" : " ") + axis + "=" + value;
    }
    return label.empty() ? run.axes.model : label;
}

// The table's columns; a data-parallel comparison (some run has ranks > 1) adds each
// run's scaling efficiency against the 1-rank cell of its own matrix.
class CompareTable {
  public:
    explicit CompareTable(const std::vector<reports::RunRecord>& runs) : runs_(runs) {
        parallel_ = std::any_of(runs.begin(), runs.end(), [](const reports::RunRecord& run) {
            return run.axes.ranks.value_or(1) > 1;
        });
    }
    void header() const {
        std::printf("%-6s %-50s %12s  %-28s %s%s\n", "run", "cell", "step ms mean",
                    "speed-up [95% CI]", parallel_ ? "scaling eff.  " : "", "verdict");
    }
    // The scaling-efficiency cell ("" where the table has no such column).
    std::string efficiency(const reports::RunRecord& run) const {
        if (!parallel_)
            return "";
        const auto e = reports::scaling_efficiency(run, runs_);
        return fmt::format("{:<12}  ", e ? fmt::format("{:.2f}", *e) : "-");
    }

  private:
    const std::vector<reports::RunRecord>& runs_;
    bool parallel_ = false;
};

void print_row(const std::string& id, const std::string& label, const reports::RunRecord& run,
               const reports::RunRecord* baseline, const std::string& note, double same_within,
               const CompareTable& table) {
    const auto cell = reports::step_time_sample(run);
    std::string step = cell ? fmt::format("{:.3f}", cell->mean_ms) : "-";
    std::string speedup = "-";
    std::string verdict = note;
    const auto c =
        baseline != nullptr ? reports::compare_runs(*baseline, run, same_within) : std::nullopt;
    if (c) {
        speedup = fmt::format("{:.3f}x [{:.3f}, {:.3f}]", c->speedup, c->speedup_ci_low,
                              c->speedup_ci_high);
        if (verdict.empty())
            verdict = reports::to_string(c->verdict);
    } else if (verdict.empty()) {
        verdict = run.status == reports::RunStatus::Ok ? "no step statistics"
                                                       : std::string(to_string(run.status));
    }
    std::printf("%-6s %-50s %12s  %-28s %s%s\n", id.c_str(), label.substr(0, 50).c_str(),
                step.c_str(), speedup.c_str(), table.efficiency(run).c_str(), verdict.c_str());
}

int execute(const CompareOptions& options) {
    const reports::ResultsDatabase db(options.database, reports::OpenMode::ReadOnly);
    const auto runs = reports::load_runs(db, {options.matrix, {}}, {});
    if (runs.empty())
        throw UsageError(fmt::format("'{}' holds no runs to compare", options.database));
    const CompareTable table(runs);
    table.header();

    if (!options.against.empty()) {
        // Two databases: each cell against the same cell (same axes) in the other file.
        const reports::ResultsDatabase other_db(options.against, reports::OpenMode::ReadOnly);
        std::map<std::string, reports::RunRecord> baseline_by_cell;
        for (auto& r : reports::load_runs(other_db, {}, {})) {
            if (r.status == reports::RunStatus::Ok)
                baseline_by_cell[r.cell_key] = std::move(r);
        }
        for (const auto& run : runs) {
            const auto it = baseline_by_cell.find(run.cell_key);
            print_row(std::to_string(run.id), label_of(run, runs), run,
                      it != baseline_by_cell.end() ? &it->second : nullptr,
                      it == baseline_by_cell.end() ? "no such cell in " + options.against : "",
                      options.same_within, table);
        }
        return 0;
    }

    const reports::RunRecord* baseline = nullptr;
    for (const auto& run : runs) {
        if (options.baseline ? run.id == *options.baseline
                             : reports::step_time_sample(run).has_value()) {
            baseline = &run;
            break;
        }
    }
    if (baseline == nullptr) {
        throw UsageError(options.baseline
                             ? fmt::format("--baseline {}: no such run in '{}' (or in --matrix)",
                                           *options.baseline, options.database)
                             : "no ok run with step statistics to use as the baseline");
    }
    if (!reports::step_time_sample(*baseline))
        throw UsageError(
            fmt::format("--baseline {}: that run has no step statistics", baseline->id));
    for (const auto& run : runs) {
        print_row(std::to_string(run.id), label_of(run, runs), run, baseline,
                  run.id == baseline->id ? "baseline" : "", options.same_within, table);
    }
    return 0;
}

}  // namespace

CommandAction add_compare_command(CLI::App& app) {
    auto options = std::make_shared<CompareOptions>();
    CLI::App* cmd = app.add_subcommand(
        "compare",
        "Speed-up of each cell against a baseline with its 95% confidence interval, and a "
        "verdict: faster, slower, same (within --same-within) or unclear (too noisy).");
    cmd->add_option("database", options->database, "results database")->required();
    cmd->add_option("--against", options->against,
                    "a second results database: compare each cell with the same cell there");
    cmd->add_option("--baseline", options->baseline,
                    "run id of the baseline (default: the first ok run)");
    cmd->add_option("--matrix", options->matrix, "only the runs of this matrix");
    cmd->add_option("--same-within", options->same_within,
                    "relative difference below which two cells count as the same")
        ->check(number_check(0, false, 1))
        ->capture_default_str();
    return [options]() { return execute(*options); };
}

}  // namespace trainscope::harness
