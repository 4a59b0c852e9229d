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
#include "harness/cli/UsageError.hpp"
#include "harness/executor/Executor.hpp"
#include "harness/isolation/ChildCell.hpp"
#include "harness/matrix/AxisCatalog.hpp"
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
    RunSettingOverrides settings;
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

// The results file must be creatable before any cell runs, so that a typo in --out
// fails in a second rather than after an hour of training.
void check_output_path(const std::filesystem::path& out) {
    std::error_code ec;
    if (std::filesystem::exists(out, ec)) {
        reports::ResultsDatabase existing(out, reports::OpenMode::CreateOrOpen);
        return;
    }
    const auto folder = out.has_parent_path() ? out.parent_path() : std::filesystem::path(".");
    if (!std::filesystem::is_directory(folder, ec)) {
        throw UsageError(
            fmt::format("cannot write --out '{}': the folder '{}' does not exist "
                        "(create it, or choose another --out path)",
                        out.string(), folder.string()));
    }
    if (access(folder.c_str(), W_OK) != 0) {
        throw UsageError(
            fmt::format("cannot write --out '{}': the folder '{}' is not writable "
                        "(choose another --out path)",
                        out.string(), folder.string()));
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
            cli_axes[name] = values;
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
    check_output_path(out);

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
            ->delimiter(',')
            ->group("Axes (comma-separated lists)")
            ->type_name(axis.values.empty() ? "VALUE[,...]"
                                            : fmt::format("{{{}}}", fmt::join(axis.values, ",")));
    }
    RunSettingOverrides& s = options->settings;
    const std::string measure = "Measurement";
    auto* steps = run->add_option("--steps", s.steps, "train each cell for exactly N steps")
                      ->check(CLI::PositiveNumber)
                      ->group(measure);
    run->add_option("--epochs", s.epochs, "train each cell for N epochs")
        ->check(CLI::PositiveNumber)
        ->excludes(steps)
        ->group(measure);
    run->add_option("--rse", s.rse,
                    "without --steps/--epochs: train until the relative standard error of the "
                    "mean step time is below this (default 0.005)")
        ->check(CLI::PositiveNumber)
        ->group(measure);
    run->add_option("--min-steps", s.min_steps, "measured steps before --rse may stop (default 50)")
        ->check(CLI::PositiveNumber)
        ->group(measure);
    run->add_option("--max-time", s.max_time,
                    "seconds of training per cell before --rse gives up (default 60)")
        ->check(CLI::PositiveNumber)
        ->group(measure);
    run->add_option("--warmup", s.warmup, "steps excluded from step-time statistics (default 5)")
        ->check(CLI::NonNegativeNumber)
        ->group(measure);
    run->add_option("--timeout", s.timeout,
                    "seconds before a cell is killed and recorded as failed (default 3600)")
        ->check(CLI::PositiveNumber)
        ->group(measure);
    run->add_option("--target-accuracy", s.target_accuracy,
                    "record the training time to reach this test accuracy")
        ->check(CLI::Range(0.0, 1.0))
        ->group(measure);
    run->add_option("--eval-every", s.eval_every,
                    "evaluate on the test set every N steps (default: each epoch and at the end)")
        ->check(CLI::NonNegativeNumber)
        ->group(measure);
    const std::string data = "Data and host";
    run->add_option("--threads", s.threads, "CPU threads (default: all cores)")
        ->check(CLI::PositiveNumber)
        ->group(data);
    run->add_option("--seed", s.seed, "seed for initialisation and shuffling (default 1)")
        ->group(data);
    run->add_option("--data-dir", s.data_dir,
                    "folder with the IDX files (default: Debian's dataset-fashion-mnist)")
        ->group(data);
    run->add_option("--input", s.input, "input shape CxHxW of --dataset synthetic, e.g. 3x224x224")
        ->group(data);
    run->add_option("--classes", s.classes, "classes of --dataset synthetic (default 10)")
        ->check(CLI::PositiveNumber)
        ->group(data);
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
    return [options]() {
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
