#include "harness/cli/TrainscopeCli.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>

#include "harness/cli/Commands.hpp"
#include "harness/cli/FailureExit.hpp"
#include "trainscope/version.hpp"

namespace trainscope::harness {

int run_cli(int argc, char** argv) {
    CLI::App app{
        "trainscope: benchmark matrices of CNN training on GPUs and CPUs, traced kernel by "
        "kernel, stored in one SQLite results database.",
        "trainscope"};
    app.set_version_flag("--version", fmt::format("trainscope {} ({})", kVersion, kGitRevision));
    app.require_subcommand(1);
    app.fallthrough(false);
    app.footer("Run 'trainscope COMMAND --help' for the options of a command.");

    std::map<CLI::App*, CommandAction> actions;
    const auto add = [&](auto add_command) {
        CommandAction action = add_command(app);
        actions[app.get_subcommands({}).back()] = std::move(action);
    };
    add(add_run_command);
    add(add_report_command);
    add(add_list_command);
    add(add_import_command);
    add(add_export_command);
    add(add_analyze_command);
    add(add_compare_command);
    add(add_diff_command);
    add(add_micro_command);
    add(add_collect_command);
    add(add_status_command);
    add(add_cell_command);
    add(add_slurm_task_command);

    if (argc > 1 && argv[1][0] != '-') {
        std::string known;
        bool found = false;
        for (const CLI::App* sub : app.get_subcommands({})) {
            found = found || sub->get_name() == argv[1];
            if (sub->get_group().empty())
                continue;  // hidden
            known += (known.empty() ? "" : ", ") + sub->get_name();
        }
        if (!found) {
            std::fprintf(stderr,
                         "trainscope: error: unknown command '%s': the commands are %s (see "
                         "'trainscope --help')\n",
                         argv[1], known.c_str());
            return 2;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0)
            return app.exit(e);  // --help, --version
        std::string where = "trainscope";
        for (CLI::App* sub : app.get_subcommands())
            where += " " + sub->get_name();
        std::fprintf(stderr, "trainscope: error: %s (see '%s --help')\n", e.what(), where.c_str());
        return 2;
    }

    try {
        for (CLI::App* sub : app.get_subcommands()) {
            const auto it = actions.find(sub);
            if (it != actions.end())
                return it->second();
        }
        return kExitInputError;
    } catch (...) {
        return report_current_exception(stderr);
    }
}

}  // namespace trainscope::harness
