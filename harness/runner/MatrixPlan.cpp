#include "harness/runner/MatrixPlan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>

#include "harness/cli/UsageError.hpp"
#include "harness/matrix/RunSettings.hpp"
#include "harness/pytorch/Framework.hpp"
#include "harness/pytorch/PyTorchApplicability.hpp"
#include "harness/runner/BackendChoice.hpp"

namespace trainscope::harness {

namespace {

// The CLI's text if given, else the file's, else none; parsed and bounded the same way
// for both, with the origin named in any error.
class SettingPicker {
  public:
    SettingPicker(const RunSettingOverrides& cli, const MatrixDefinition& file)
        : cli_(cli), file_(file) {}

    [[nodiscard]] std::optional<SettingText> text(std::string_view name) const {
        const RunSettingInfo& info = *find_run_setting(name);
        if (const auto it = cli_.find(std::string(name)); it != cli_.end())
            return SettingText{it->second, std::string(info.flag)};
        if (const auto it = file_.settings.find(std::string(name)); it != file_.settings.end()) {
            const std::string source =
                file_.source_name.empty() ? "matrix file" : file_.source_name;
            return SettingText{it->second, fmt::format("{}: [run] {}", source, name)};
        }
        return std::nullopt;
    }
    template <typename T>
    [[nodiscard]] std::optional<T> get(std::string_view name) const {
        const auto value = text(name);
        if (!value)
            return std::nullopt;
        const RunSettingInfo& info = *find_run_setting(name);
        if constexpr (std::is_same_v<T, std::string>) {
            if (value->text.empty())
                throw UsageError(fmt::format("{} is empty: give a value", value->origin));
            return value->text;
        } else if constexpr (std::is_floating_point_v<T>) {
            return parse_number_setting(info, *value);
        } else {
            return static_cast<T>(parse_integer_setting(info, *value));
        }
    }

  private:
    const RunSettingOverrides& cli_;
    const MatrixDefinition& file_;
};

// Skips the framework=pytorch cells PyTorch cannot run as asked, saying why; the
// interpreter is asked once, and only when such a cell exists.
void apply_pytorch_applicability(std::vector<Cell>& cells, const std::string& python) {
    std::optional<PyTorchCapabilities> torch;
    for (auto& cell : cells) {
        if (parse_framework(cell.at("framework")) != Framework::pytorch)
            continue;
        if (!torch)
            torch = probe_pytorch(python);
        if (cell.skip_reason.empty())
            cell.skip_reason = pytorch_skip_reason(cell, *torch);
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
    // --batch is the global batch: each of a cell's ranks trains batch/ranks rows of it.
    for (const Cell& cell : cells) {
        const long long batch = std::stoll(cell.at("batch"));
        const long long ranks = std::stoll(cell.at("ranks"));
        if (batch % ranks != 0) {
            throw UsageError(fmt::format(
                "cell {}: batch {} does not divide among {} ranks (--batch is the global "
                "batch); use a batch that is a multiple of ranks, or exclude the cell",
                cell.key(), batch, ranks));
        }
    }

    RunLength& length = plan.length;
    const SettingPicker pick(cli, file);
    if (cli.count("steps") != 0 && cli.count("epochs") != 0)
        throw UsageError("--steps and --epochs exclude each other: give one");
    if (file.settings.count("steps") != 0 && file.settings.count("epochs") != 0) {
        throw UsageError(
            fmt::format("{}: [run] sets both steps and epochs, which exclude each "
                        "other: keep one",
                        file.source_name.empty() ? "matrix file" : file.source_name));
    }
    // A CLI length replaces the file's, whichever of the two each gives.
    const bool cli_length = cli.count("steps") != 0 || cli.count("epochs") != 0;
    const auto steps =
        cli_length && cli.count("steps") == 0 ? std::nullopt : pick.get<std::int64_t>("steps");
    const auto epochs =
        cli_length && cli.count("epochs") == 0 ? std::nullopt : pick.get<int>("epochs");
    if (steps) {
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
    length.warmup_steps = pick.get<int>("warmup").value_or(length.warmup_steps);
    length.threads = pick.get<int>("threads").value_or(0);
    length.seed = pick.get<std::uint64_t>("seed").value_or(1);
    length.dataset_dir = pick.get<std::string>("data_dir").value_or("");
    length.input_shape = pick.get<std::string>("input").value_or("");
    length.classes = pick.get<int>("classes").value_or(10);
    length.target_accuracy = pick.get<double>("target_accuracy");
    length.eval_every_steps = pick.get<std::int64_t>("eval_every").value_or(0);
    length.python = pick.get<std::string>("python").value_or(length.python);
    plan.stopping.rse_target = pick.get<double>("rse").value_or(plan.stopping.rse_target);
    plan.stopping.min_steps = pick.get<std::int64_t>("min_steps").value_or(plan.stopping.min_steps);
    plan.stopping.max_time_s = pick.get<double>("max_time").value_or(plan.stopping.max_time_s);
    plan.timeout = std::chrono::seconds(pick.get<std::int64_t>("timeout").value_or(3600));

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
    apply_pytorch_applicability(cells, length.python);
    plan.cells = deduplicate(std::move(cells));
    alternate_framework_order(plan.cells);
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
                              {"python", length.python},
                              {"fixed_length", plan.stopping.fixed_length},
                              {"rse", plan.stopping.rse_target},
                              {"min_steps", plan.stopping.min_steps},
                              {"max_time", plan.stopping.max_time_s}};
    if (length.target_accuracy)
        definition["settings"]["target_accuracy"] = *length.target_accuracy;
    plan.definition_json = definition.dump();
    return plan;
}

std::optional<std::string> matrix_identity(const std::string& definition_json) {
    const auto j = nlohmann::json::parse(definition_json, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return std::nullopt;
    // The set of cells, not their order: a matrix started by a version that ran its cells
    // in another order (framework outermost, before alternate_framework_order) resumes.
    auto cells = j.value("cells", nlohmann::json());
    if (cells.is_array())
        std::sort(cells.begin(), cells.end());
    return cells.dump() + j.value("settings", nlohmann::json()).dump();
}

bool same_matrix(const std::string& a, const std::string& b) {
    const auto ia = matrix_identity(a);
    const auto ib = matrix_identity(b);
    return ia && ib && *ia == *ib;
}

}  // namespace trainscope::harness
