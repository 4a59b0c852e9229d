#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "harness/cli/Commands.hpp"
#include "harness/cli/ExecutorOptions.hpp"
#include "harness/cli/OutputPath.hpp"
#include "harness/cli/UsageError.hpp"
#include "harness/executor/Executor.hpp"
#include "harness/isolation/ChildCell.hpp"
#include "harness/matrix/AxisCatalog.hpp"
#include "harness/matrix/RunSettings.hpp"
#include "harness/runner/MatrixPlan.hpp"
#include "harness/runner/MatrixRunner.hpp"
#include "harness/runner/RunSummary.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::harness {

namespace {

struct RunOptions {
    std::string matrix_file;
    std::map<std::string, std::vector<std::string>> axes;  // axis -> values given on the CLI
    std::map<std::string, std::string> setting_texts;      // bound to the options
    RunSettingOverrides settings;                          // the ones given
    std::string out = "results.db";
    bool resume = false;
    bool dry_run = false;
    bool quiet = false;
    bool json = false;
    std::string inject_fault;
    std::string command_line;
    ExecutorFlags executor;
};

// How to open the GUI beside this binary: relative to the working directory when the
// binary is below it (build/bin/trainscope-gui), else absolute; the bare name when the
// GUI was not built here but may be on the PATH.
std::string gui_command() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        return "trainscope-gui";
    const std::filesystem::path gui = self.parent_path() / "trainscope-gui";
    if (!std::filesystem::exists(gui, ec))
        return "trainscope-gui";
    const std::filesystem::path relative =
        std::filesystem::relative(gui, std::filesystem::current_path(ec), ec);
    if (!ec && !relative.empty() && *relative.begin() != "..")
        return relative.string();
    return gui.string();
}

// The last line of a traced matrix: the command that opens its timeline.
void print_timeline_command(const std::string& out, const std::vector<reports::RunRecord>& runs) {
    std::vector<std::int64_t> traced;
    try {
        const reports::ResultsDatabase db(out, reports::OpenMode::ReadOnly);
        traced = reports::traced_run_ids(db);
    } catch (const std::exception&) {
        return;  // the results are written; a hint is not worth an error
    }
    if (const auto run = run_to_open(runs, traced)) {
        std::fprintf(stderr, "Timeline of run %lld (the slowest traced cell): %s %s --run %lld\n",
                     static_cast<long long>(*run), gui_command().c_str(), out.c_str(),
                     static_cast<long long>(*run));
    }
}

void print_dry_run(const MatrixPlan& plan) {
    std::printf("%zu cell%s\n", plan.cells.size(), plan.cells.size() == 1 ? "" : "s");
    std::string fixed;
    for (const auto& [axis, value] : plan.cells.front().values) {
        if (std::find(plan.varying_axes.begin(), plan.varying_axes.end(), axis) ==
            plan.varying_axes.end()) {
            fixed += fmt::format(" {}={}", axis, value);
        }
    }
    std::printf("same in every cell:%s\n", fixed.c_str());
    for (std::size_t i = 0; i < plan.cells.size(); ++i) {
        const Cell& cell = plan.cells[i];
        std::printf("%4zu  %s%s\n", i + 1, cell_label(cell, plan.varying_axes).c_str(),
                    cell.skip_reason.empty()
                        ? ""
                        : fmt::format("  [skipped: {}]", cell.skip_reason).c_str());
    }
}

void print_json(const MatrixRunResult& result, const std::filesystem::path& out) {
    nlohmann::json j;
    j["database"] = out.string();
    j["matrix_id"] = result.matrix_id;
    j["interrupted"] = result.interrupted;
    j["already_done"] = result.already_done;
    j["runs"] = nlohmann::json::array();
    for (const auto& run : result.runs) {
        nlohmann::json r;
        r["run_id"] = run.id;
        r["cell"] = run.cell_key;
        r["status"] = std::string(reports::to_string(run.status));
        r["error"] = run.error;
        for (const auto& axis : reports::axis_names())
            r["axes"][axis] = reports::axis_value(run.axes, axis);
        for (const auto& m : run.metrics)
            r["metrics"][m.name] = m.value;
        j["runs"].push_back(std::move(r));
    }
    std::printf("%s\n", j.dump(2).c_str());
}

int execute(const RunOptions& options) {
    MatrixDefinition file;
    if (!options.matrix_file.empty())
        file = load_matrix_file(options.matrix_file);
    AxisValues cli_axes;
    for (const auto& [name, values] : options.axes) {
        if (!values.empty())
            cli_axes[name] = split_axis_values(find_axis(name)->flag, values);
    }
    MatrixPlan plan =
        make_matrix_plan(file, cli_axes, options.settings, options.command_line, options.dry_run);
    plan.fault = parse_fault_injection(options.inject_fault);
    if (options.dry_run) {
        print_dry_run(plan);
        return 0;
    }
    if (!options.quiet && !plan.backend_notice.empty()) {
        std::fprintf(stderr, "trainscope: %s\n", plan.backend_notice.c_str());
    }
    const auto executor = make_executor(resolve_executor_settings(file.executor, options.executor));
    const std::filesystem::path out(options.out);
    check_database_output(out, "--out");

    MatrixRunOptions run_options{out, options.resume,
                                 options.quiet ? ProgressStyle::Quiet : default_progress_style()};
    const MatrixRunResult result = executor->run(plan, run_options);
    if (result.detached)
        return 0;  // handed to a scheduler: collect later
    if (!options.quiet) {
        if (!result.runs.empty())
            print_summary_table(result.runs, plan.varying_axes);
        std::fprintf(stderr, "Results: %s (matrix %lld: %zu run%s recorded now%s)\n", out.c_str(),
                     static_cast<long long>(result.matrix_id), result.runs.size(),
                     result.runs.size() == 1 ? "" : "s",
                     result.already_done > 0
                         ? fmt::format(", {} done before", result.already_done).c_str()
                         : "");
    }
    if (!options.quiet)
        print_timeline_command(out, result.runs);
    if (options.json)
        print_json(result, out);
    if (result.interrupted) {
        std::fprintf(
            stderr,
            "trainscope: interrupted; the finished cells are saved. Continue with the same "
            "command and --resume.\n");
        return 130;
    }
    if (result.waiting > 0)
        return 1;  // the executor said which cells and what to do
    for (const auto& r : result.runs) {
        if (r.status == reports::RunStatus::Failed)
            return 1;
    }
    return 0;
}

}  // namespace

CommandAction add_run_command(CLI::App& app) {
    auto options = std::make_shared<RunOptions>();
    CLI::App* run = app.add_subcommand(
        "run",
        "Train under every combination of the axis values (from a matrix file and/or "
        "comma-separated flags) and store each cell as a run in the results database.");
    run->add_option("matrix", options->matrix_file,
                    "matrix file (TOML; see examples/); flags override or add axes")
        ->check(CLI::ExistingFile);
    for (const auto& axis : axis_catalog()) {
        run->add_option(axis.flag, options->axes[axis.name],
                        fmt::format("{} (default {})", axis.description, axis.default_value))
            ->group("Axes (comma-separated lists)")
            ->type_name(axis.values.empty() ? "VALUE[,...]"
                                            : fmt::format("{{{}}}", fmt::join(axis.values, ",")));
    }
    // Settings are taken as text and parsed with the matrix file's [run] values by one
    // function (harness/matrix/RunSettings), so both accept and refuse the same values.
    const auto setting = [&](const char* name, const char* help, const std::string& group) {
        const RunSettingInfo& info = *find_run_setting(name);
        return run->add_option(std::string(info.flag), options->setting_texts[name], help)
            ->group(group);
    };
    const std::string measure = "Measurement";
    setting("steps", "train each cell for exactly N steps", measure);
    setting("epochs", "train each cell for N epochs", measure);
    setting("rse",
            "without --steps/--epochs: train until the relative standard error of the mean "
            "step time is below this (default 0.005)",
            measure);
    setting("min_steps", "measured steps before --rse may stop (default 50)", measure);
    setting("max_time", "seconds of training per cell before --rse gives up (default 60)", measure);
    setting("warmup", "steps excluded from step-time statistics (default 5)", measure);
    setting("timeout", "seconds before a cell is killed and recorded as failed (default 3600)",
            measure);
    setting("target_accuracy", "record the training time to reach this test accuracy", measure);
    setting("eval_every",
            "evaluate on the test set every N steps (default: each epoch and at the end)", measure);
    const std::string data = "Data and host";
    setting("threads",
            "CPU threads of each rank (default: all cores; in a multi-rank cell the cores "
            "divided among the ranks on the node, at least 1; at most four per hardware "
            "thread)",
            data);
    setting("seed", "seed for initialisation and shuffling (default 1)", data);
    setting("data_dir", "folder with the IDX files (default: Debian's dataset-fashion-mnist)",
            data);
    setting("input", "input shape CxHxW of --dataset synthetic, e.g. 3x224x224", data);
    setting("classes", "classes of --dataset synthetic (default 10)", data);
    setting("python",
            "Python interpreter of --framework pytorch cells; it must import torch (default "
            "python3)",
            data);
    run->add_option("-o,--out", options->out, "results database to create or add to")
        ->capture_default_str();
    run->add_flag("--resume", options->resume,
                  "continue the latest run of the same matrix in --out: cells already ok are not "
                  "run again");
    run->add_flag("--dry-run", options->dry_run, "print the expanded cells and exit");
    run->add_flag("-q,--quiet", options->quiet, "print nothing but errors");
    run->add_flag("--json", options->json, "print the results as JSON on stdout");
    add_executor_options(*run, options->executor);
    run->add_option("--inject-fault", options->inject_fault)->group("");  // tests only
    return [options, run]() {
        options->settings.clear();
        for (const auto& [name, text] : options->setting_texts) {
            if (run->count(std::string(find_run_setting(name)->flag)) > 0)
                options->settings[name] = text;
        }
        options->command_line = "trainscope run";
        if (!options->matrix_file.empty())
            options->command_line += " " + options->matrix_file;
        for (const auto& [name, values] : options->axes) {
            if (values.empty())
                continue;
            const AxisInfo* axis = find_axis(name);
            options->command_line +=
                fmt::format(" {} {}", axis != nullptr ? axis->flag : name, fmt::join(values, ","));
        }
        return execute(*options);
    };
}

CommandAction add_cell_command(CLI::App& app) {
    auto job = std::make_shared<std::string>();
    auto result_dir = std::make_shared<std::string>();
    CLI::App* cell = app.add_subcommand("__cell", "")->group("");  // internal: one cell's child
    cell->add_option("job", *job)->required();
    cell->add_option("result_dir", *result_dir)->required();
    return [job, result_dir]() { return run_child_cell(*job, *result_dir); };
}

}  // namespace trainscope::harness
