#include "harness/runner/MatrixPlan.hpp"

#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>

#include "harness/cli/UsageError.hpp"
#include "harness/runner/BackendChoice.hpp"

namespace trainscope::harness {

namespace {

template <typename T>
T parse_setting(const std::string& name, const std::string& text) {
    T value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size()) {
        throw UsageError(fmt::format("matrix setting {} = '{}' is not a valid number", name, text));
    }
    return value;
}

// CLI value if given, else the file's, else none.
template <typename T>
std::optional<T> pick(const std::optional<T>& cli, const MatrixDefinition& file,
                      const std::string& name) {
    if (cli)
        return cli;
    const auto it = file.settings.find(name);
    if (it == file.settings.end())
        return std::nullopt;
    if constexpr (std::is_same_v<T, std::string>) {
        return it->second;
    } else {
        return parse_setting<T>(name, it->second);
    }
}

}  // namespace

MatrixPlan make_matrix_plan(const MatrixDefinition& file, const AxisValues& cli_axes,
                            const RunSettingOverrides& cli, const std::string& command_line,
                            bool for_dry_run) {
    MatrixPlan plan;
    plan.name = file.name.empty() ? "cli" : file.name;
    AxisValues axes = file.axes;
    for (const auto& [name, values] : cli_axes)
        axes[name] = values;
    std::vector<Cell> cells = apply_excludes(expand_matrix(axes), file.excludes);
    if (cells.empty())
        throw UsageError("the exclude rules leave no cell to run");

    RunLength& length = plan.length;
    const auto steps = pick(cli.steps, file, "steps");
    const auto epochs = pick(cli.epochs, file, "epochs");
    if (cli.steps && cli.epochs)
        throw UsageError("--steps and --epochs exclude each other");
    if (steps && *steps <= 0)
        throw UsageError("--steps must be positive");
    if (epochs && *epochs <= 0)
        throw UsageError("--epochs must be positive");
    if (cli.steps || (!cli.epochs && steps)) {
        length.steps = *steps;
        length.epochs = 0;
    } else if (epochs) {
        length.epochs = *epochs;
    }
    plan.stopping.fixed_length = steps.has_value() || epochs.has_value();
    if (!plan.stopping.fixed_length) {
        length.steps = 0;
        length.epochs = 0;
    }
    length.warmup_steps = pick(cli.warmup, file, "warmup").value_or(length.warmup_steps);
    length.threads = pick(cli.threads, file, "threads").value_or(0);
    length.seed = pick(cli.seed, file, "seed").value_or(1);
    length.dataset_dir = pick(cli.data_dir, file, "data_dir").value_or("");
    length.input_shape = pick(cli.input, file, "input").value_or("");
    length.classes = pick(cli.classes, file, "classes").value_or(10);
    length.target_accuracy = pick(cli.target_accuracy, file, "target_accuracy");
    length.eval_every_steps = pick(cli.eval_every, file, "eval_every").value_or(0);
    plan.stopping.rse_target = pick(cli.rse, file, "rse").value_or(plan.stopping.rse_target);
    plan.stopping.min_steps =
        pick(cli.min_steps, file, "min_steps").value_or(plan.stopping.min_steps);
    plan.stopping.max_time_s =
        pick(cli.max_time, file, "max_time").value_or(plan.stopping.max_time_s);
    plan.timeout = std::chrono::seconds(pick(cli.timeout, file, "timeout").value_or(3600));
    if (!(plan.stopping.rse_target > 0))
        throw UsageError("--rse must be positive, e.g. 0.005");
    if (plan.timeout.count() <= 0)
        throw UsageError("--timeout must be a positive number of seconds");

    const BackendChoice backends = choose_backends(cells);
    if (!for_dry_run)
        require_some_runnable_cell(backends, cells);
    plan.backend_notice = backends.notice;
    for (auto& cell : cells) {
        const std::string unavailable = backend_unavailable_reason(backends, cell);
        apply_backend_applicability(cell, backends.resolve(cell.at("backend")));
        if (!unavailable.empty())
            cell.skip_reason = unavailable;
    }
    plan.cells = deduplicate(std::move(cells));
    plan.varying_axes = varying_axes(plan.cells);

    nlohmann::json definition;
    definition["command"] = command_line;
    definition["file"] = file.source_text;
    definition["cells"] = nlohmann::json::array();
    for (const auto& cell : plan.cells)
        definition["cells"].push_back(cell.key());
    definition["settings"] = {{"steps", length.steps},
                              {"epochs", length.epochs},
                              {"warmup", length.warmup_steps},
                              {"threads", length.threads},
                              {"seed", length.seed},
                              {"data_dir", length.dataset_dir},
                              {"input", length.input_shape},
                              {"classes", length.classes},
                              {"eval_every", length.eval_every_steps},
                              {"fixed_length", plan.stopping.fixed_length},
                              {"rse", plan.stopping.rse_target},
                              {"min_steps", plan.stopping.min_steps},
                              {"max_time", plan.stopping.max_time_s}};
    if (length.target_accuracy)
        definition["settings"]["target_accuracy"] = *length.target_accuracy;
    plan.definition_json = definition.dump();
    return plan;
}

bool same_matrix(const std::string& a, const std::string& b) {
    const auto ja = nlohmann::json::parse(a, nullptr, false);
    const auto jb = nlohmann::json::parse(b, nullptr, false);
    if (ja.is_discarded() || jb.is_discarded() || !ja.is_object() || !jb.is_object())
        return false;
    return ja.value("cells", nlohmann::json()) == jb.value("cells", nlohmann::json()) &&
           ja.value("settings", nlohmann::json()) == jb.value("settings", nlohmann::json());
}

}  // namespace trainscope::harness
