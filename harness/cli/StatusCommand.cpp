#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>

#include "harness/cli/Commands.hpp"
#include "harness/cli/SlurmResults.hpp"
#include "harness/cli/UsageError.hpp"
#include "harness/executor/CellStates.hpp"
#include "harness/executor/ResultsFolder.hpp"
#include "harness/runner/RunSummary.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::harness {

namespace {

void print_matrix_states(const reports::ResultsDatabase& db, std::int64_t id,
                         const std::filesystem::path& folder, const SlurmClient* slurm) {
    const auto states = matrix_cell_states(db, id, folder, slurm);
    std::vector<Cell> cells;
    for (const auto& s : states)
        cells.push_back(Cell::from_key(s.cell_key));
    const auto axes = varying_axes(cells);
    std::size_t counts[5] = {};
    std::size_t width = 4;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < states.size(); ++i) {
        labels.push_back(cell_label(cells[i], axes));
        width = std::max(width, labels.back().size());
        ++counts[static_cast<int>(states[i].state)];
    }
    std::printf(
        "matrix %lld: %zu cells: %zu pending, %zu running, %zu done, %zu failed, %zu "
        "missing (results folder %s)\n",
        static_cast<long long>(id), states.size(), counts[static_cast<int>(CellState::Pending)],
        counts[static_cast<int>(CellState::Running)], counts[static_cast<int>(CellState::Done)],
        counts[static_cast<int>(CellState::Failed)], counts[static_cast<int>(CellState::Missing)],
        folder.c_str());
    std::printf("%-*s  %-8s  %-12s  %-10s  %s\n", static_cast<int>(width), "cell", "state", "node",
                "elapsed", "detail");
    for (std::size_t i = 0; i < states.size(); ++i) {
        const CellStatus& s = states[i];
        std::printf("%-*s  %-8s  %-12s  %-10s  %s\n", static_cast<int>(width), labels[i].c_str(),
                    std::string(to_string(s.state)).c_str(), s.node.c_str(), s.elapsed.c_str(),
                    s.detail.c_str());
    }
}

}  // namespace

CommandAction add_status_command(CLI::App& app) {
    struct Options {
        std::string out;
        std::optional<std::int64_t> matrix;
    };
    auto options = std::make_shared<Options>();
    CLI::App* status = app.add_subcommand(
        "status",
        "Show each cell of a Slurm-run matrix: pending, running (node, elapsed), done, failed "
        "(with Slurm's reason) or missing.");
    status->add_option("database", options->out, "results database (the --out of the run)")
        ->required();
    status->add_option("--matrix", options->matrix,
                       "this matrix id (default: the newest matrix sent to Slurm)");
    return [options]() {
        require_slurm_results(options->out);
        const auto matrices = slurm_matrices(options->out);
        const std::int64_t id = options->matrix.value_or(matrices.rbegin()->first);
        const auto folder = matrices.find(id);
        if (folder == matrices.end()) {
            throw UsageError(
                fmt::format("--matrix {}: '{}' has no matrix {} run with --executor "
                            "slurm (the newest is {})",
                            id, options->out, id, matrices.rbegin()->first));
        }
        const auto slurm = optional_slurm_client();
        const reports::ResultsDatabase db(options->out, reports::OpenMode::ReadOnly);
        print_matrix_states(db, id, folder->second, slurm.get());
        return 0;
    };
}

}  // namespace trainscope::harness
