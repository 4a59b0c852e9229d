#include <cstdio>
#include <memory>
#include <optional>

#include "harness/cli/Commands.hpp"
#include "harness/cli/SlurmResults.hpp"
#include "harness/cli/UsageError.hpp"
#include "harness/executor/Collector.hpp"
#include "harness/executor/ResultsFolder.hpp"
#include "harness/executor/SlurmTask.hpp"
#include "harness/executor/Subprocess.hpp"
#include "harness/runner/RunSummary.hpp"

namespace trainscope::harness {

std::unique_ptr<SlurmClient> optional_slurm_client() {
    if (!find_on_path("squeue"))
        return nullptr;
    return std::make_unique<SlurmClient>();
}

void require_slurm_results(const std::string& out) {
    std::error_code ec;
    if (!std::filesystem::exists(out, ec)) {
        throw UsageError("results database '" + out +
                         "' does not exist (give the --out of 'trainscope run --executor slurm')");
    }
    if (slurm_matrices(out).empty()) {
        throw UsageError("'" + out + "' has no matrix run with --executor slurm (no folder " +
                         slurm_root(out).string() + ")");
    }
}

CommandAction add_collect_command(CLI::App& app) {
    struct Options {
        std::string out;
        std::optional<std::int64_t> matrix;
        bool quiet = false;
    };
    auto options = std::make_shared<Options>();
    CLI::App* collect = app.add_subcommand(
        "collect",
        "Merge the finished cells of Slurm-run matrices into the results database, in one "
        "transaction; running it again adds nothing.");
    collect->add_option("database", options->out, "results database (the --out of the run)")
        ->required();
    collect->add_option("--matrix", options->matrix, "only this matrix id");
    collect->add_flag("-q,--quiet", options->quiet, "print nothing but errors");
    return [options]() {
        require_slurm_results(options->out);
        const auto slurm = optional_slurm_client();
        const CollectResult result = collect_results(options->out, slurm.get(), options->matrix);
        if (!options->quiet) {
            for (const auto& run : result.added)
                print_run_result(run);
            std::fprintf(stderr,
                         "collected %zu run%s into %s (%zu already there, %zu still queued or "
                         "running)\n",
                         result.added.size(), result.added.size() == 1 ? "" : "s",
                         options->out.c_str(), result.already, result.waiting);
        }
        return 0;
    };
}

CommandAction add_slurm_task_command(CLI::App& app) {
    auto dir = std::make_shared<std::string>();
    CLI::App* task = app.add_subcommand("__slurm-task", "")->group("");  // internal: sbatch's
    task->add_option("submission", *dir)->required();
    return [dir]() { return run_slurm_task(*dir); };
}

}  // namespace trainscope::harness
