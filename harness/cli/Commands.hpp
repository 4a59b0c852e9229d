#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace trainscope::harness {

// Each subcommand registers its options on the app and returns the action that runs
// it after parsing; the action returns the process exit code.
using CommandAction = std::function<int()>;

CommandAction add_run_command(CLI::App& app);
CommandAction add_report_command(CLI::App& app);
CommandAction add_list_command(CLI::App& app);
CommandAction add_import_command(CLI::App& app);
CommandAction add_export_command(CLI::App& app);
CommandAction add_analyze_command(CLI::App& app);
CommandAction add_compare_command(CLI::App& app);
CommandAction add_diff_command(CLI::App& app);
CommandAction add_micro_command(CLI::App& app);
// Slurm: merging an array's results, the state of its cells, and one array task.
CommandAction add_collect_command(CLI::App& app);
CommandAction add_status_command(CLI::App& app);
CommandAction add_slurm_task_command(CLI::App& app);
// The hidden child side of cell isolation.
CommandAction add_cell_command(CLI::App& app);

}  // namespace trainscope::harness
