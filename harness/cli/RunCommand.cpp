#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "harness/cli/Commands.hpp"
#include "harness/cli/UsageError.hpp"
#include "harness/matrix/AxisCatalog.hpp"
#include "harness/matrix/Cell.hpp"
#include "harness/runner/BackendChoice.hpp"
#include "harness/runner/CellRunner.hpp"
#include "harness/runner/ProgressReporter.hpp"
#include "harness/runner/RunSummary.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "trainscope/version.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::harness {

namespace {

struct RunOptions {
    std::map<std::string, std::vector<std::string>> axes;  // axis -> values given on the CLI
    RunLength length;
    std::optional<std::int64_t> steps;
    std::optional<int> epochs;
    std::string out = "results.db";
    bool quiet = false;
    std::string command_line;
};

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

int execute(const RunOptions& options) {
    AxisValues axes;
    for (const auto& [name, values] : options.axes) {
        if (!values.empty())
            axes[name] = values;
    }
    std::vector<Cell> cells = expand_matrix(axes);
    RunLength length = options.length;
    if (options.steps) {
        length.steps = *options.steps;
        length.epochs = 0;
    } else if (options.epochs) {
        length.epochs = *options.epochs;
    } else {
        length.steps = 300;
        length.epochs = 0;
    }

    const std::vector<std::string> varying = varying_axes(cells);
    const BackendChoice backends = choose_backends(cells);
    if (!options.quiet && !backends.notice.empty()) {
        std::fprintf(stderr, "trainscope: %s\n", backends.notice.c_str());
    }
    for (auto& cell : cells)
        apply_backend_applicability(cell, backends.resolve(cell.at("backend")));
    cells = deduplicate(std::move(cells));

    const std::filesystem::path out(options.out);
    check_output_path(out);

    std::unique_ptr<reports::ResultsDatabase> db;
    std::unique_ptr<reports::RunWriter> writer;
    std::int64_t matrix_id = 0;
    std::vector<reports::RunRecord> finished;
    const ProgressStyle style = options.quiet ? ProgressStyle::Quiet : default_progress_style();

    for (std::size_t i = 0; i < cells.size(); ++i) {
        const Cell& cell = cells[i];
        const auto config = make_training_config(cell, length);
        const std::int64_t expected_steps = length.steps;
        ProgressReporter progress(style, static_cast<int>(i + 1), static_cast<int>(cells.size()),
                                  cell_label(cell, varying), expected_steps, config.batch);
        reports::RunRecord record;
        try {
            record = run_cell(cell, length, &progress);
        } catch (const workloads::ConfigError& e) {
            // Bad input is the user's to fix: before anything is written it stops the
            // whole command; later it is recorded against its cell.
            if (!db)
                throw;
            record.cell_key = cell.key();
            record.axes = make_run_axes(cell, length);
            record.status = reports::RunStatus::Failed;
            record.error = e.what();
        }
        progress.finish();
        if (!db) {
            db = std::make_unique<reports::ResultsDatabase>(out, reports::OpenMode::CreateOrOpen);
            writer = std::make_unique<reports::RunWriter>(*db);
            matrix_id =
                writer->create_matrix({"cli", options.command_line, kVersion, kGitRevision});
        }
        record.matrix_id = matrix_id;
        record.axes.trace_level = cell.at("trace_level");
        record.id = writer->write(record);
        if (!options.quiet)
            print_run_result(record);
        finished.push_back(std::move(record));
    }
    if (!options.quiet) {
        print_summary_table(finished, varying);
        std::fprintf(stderr, "Results: %s (matrix %lld, %zu run%s)\n", out.c_str(),
                     static_cast<long long>(matrix_id), finished.size(),
                     finished.size() == 1 ? "" : "s");
    }
    for (const auto& r : finished) {
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
        "Train under every combination of the given axis values (comma-separated lists) and "
        "store each cell as a run in the results database.");
    for (const auto& axis : axis_catalog()) {
        run->add_option(axis.flag, options->axes[axis.name],
                        fmt::format("{} (default {})", axis.description, axis.default_value))
            ->delimiter(',')
            ->type_name(axis.values.empty() ? "VALUE[,VALUE...]"
                                            : fmt::format("{{{}}}", fmt::join(axis.values, ",")));
    }
    auto* steps =
        run->add_option("--steps", options->steps, "training steps per cell (default 300)")
            ->check(CLI::PositiveNumber);
    run->add_option("--epochs", options->epochs, "train for N epochs instead of --steps")
        ->check(CLI::PositiveNumber)
        ->excludes(steps);
    run->add_option("--warmup", options->length.warmup_steps,
                    "steps excluded from step-time statistics")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    run->add_option("--threads", options->length.threads, "CPU threads (default: all cores)")
        ->check(CLI::PositiveNumber);
    run->add_option("--seed", options->length.seed, "seed for initialisation and shuffling")
        ->capture_default_str();
    run->add_option("--data-dir", options->length.dataset_dir,
                    "folder with the IDX files (default: Debian's dataset-fashion-mnist)");
    run->add_option("--input", options->length.input_shape,
                    "input shape CxHxW of --dataset synthetic, e.g. 3x224x224");
    run->add_option("--classes", options->length.classes, "classes of --dataset synthetic")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    run->add_option("--target-accuracy", options->length.target_accuracy,
                    "report the training time to reach this test accuracy")
        ->check(CLI::Range(0.0, 1.0));
    run->add_option("--eval-every", options->length.eval_every_steps,
                    "evaluate on the test set every N steps (default: each epoch and at the end)")
        ->check(CLI::NonNegativeNumber);
    run->add_option("-o,--out", options->out, "results database to create or add to")
        ->capture_default_str();
    run->add_flag("-q,--quiet", options->quiet, "print nothing but errors");
    return [options, &app]() {
        options->command_line = "trainscope run";
        for (const auto& [name, values] : options->axes) {
            if (values.empty())
                continue;
            const AxisInfo* axis = find_axis(name);
            options->command_line +=
                fmt::format(" {} {}", axis != nullptr ? axis->flag : name, fmt::join(values, ","));
        }
        (void)app;
        return execute(*options);
    };
}

}  // namespace trainscope::harness
