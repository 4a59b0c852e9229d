#include "harness/matrix/MatrixFile.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "harness/cli/UsageError.hpp"
#include "harness/executor/ExecutorSettings.hpp"
#include "harness/matrix/AxisCatalog.hpp"
#include "harness/matrix/RunSettings.hpp"

namespace trainscope::harness {

namespace {

std::string where(const std::string& source, const toml::node& node) {
    const auto& at = node.source().begin;
    return fmt::format("{}:{}:{}", source, at.line, at.column);
}

// A scalar as the text the CLI would take: 64, 0.001, "fp32", true -> "on".
std::string scalar_text(const toml::node& node, const std::string& source, const std::string& key) {
    if (auto s = node.value<std::string>(); s && node.is_string())
        return *s;
    if (node.is_integer())
        return std::to_string(*node.value<std::int64_t>());
    if (node.is_floating_point())
        return fmt::format("{}", *node.value<double>());
    if (node.is_boolean())
        return std::string(kOffOn[*node.value<bool>() ? 1 : 0]);
    throw UsageError(
        fmt::format("{}: '{}' must be a string, number or boolean", where(source, node), key));
}

std::vector<std::string> values_of(const toml::node& node, const std::string& source,
                                   const std::string& key) {
    std::vector<std::string> values;
    if (const auto* array = node.as_array()) {
        for (const auto& element : *array)
            values.push_back(scalar_text(element, source, key));
        if (values.empty()) {
            throw UsageError(
                fmt::format("{}: axis '{}' has an empty list", where(source, node), key));
        }
    } else {
        values.push_back(scalar_text(node, source, key));
    }
    return values;
}

const AxisInfo& known_axis(const std::string& key, const toml::node& node,
                           const std::string& source) {
    const AxisInfo* axis = find_axis(key);
    if (axis == nullptr) {
        std::vector<std::string> names;
        for (const auto& a : axis_catalog())
            names.push_back(a.name);
        throw UsageError(fmt::format("{}: unknown axis '{}': the axes are {}", where(source, node),
                                     key, fmt::join(names, ", ")));
    }
    return *axis;
}

std::map<std::string, std::string> parse_executor_table(const toml::node& node,
                                                        const std::string& source) {
    const auto* table = node.as_table();
    if (table == nullptr)
        throw UsageError(where(source, node) + ": [executor] must be a table");
    std::map<std::string, std::string> settings;
    const auto& names = executor_setting_names();
    for (const auto& [setting_key, setting_node] : *table) {
        const std::string name(setting_key.str());
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            throw UsageError(fmt::format("{}: unknown executor setting '{}': the settings are {}",
                                         where(source, setting_node), name,
                                         fmt::join(names, ", ")));
        }
        if (const auto* list = setting_node.as_array()) {
            std::vector<std::string> values;
            for (const auto& element : *list)
                values.push_back(scalar_text(element, source, name));
            settings[name] = fmt::format("{}", fmt::join(values, "\n"));
        } else {
            settings[name] = scalar_text(setting_node, source, name);
        }
    }
    return settings;
}

}  // namespace

const std::vector<std::string>& matrix_setting_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n;
        for (const auto& setting : run_setting_catalog())
            n.emplace_back(setting.name);
        return n;
    }();
    return names;
}

MatrixDefinition parse_matrix_text(const std::string& text, const std::string& source) {
    toml::table root;
    try {
        root = toml::parse(text, source);
    } catch (const toml::parse_error& e) {
        const auto& at = e.source().begin;
        throw UsageError(fmt::format("{}:{}:{}: not valid TOML: {}", source, at.line, at.column,
                                     e.description()));
    }
    MatrixDefinition def;
    def.source_text = text;
    def.source_name = source;
    for (const auto& [key_view, node] : root) {
        const std::string key(key_view.str());
        if (key == "name") {
            def.name = scalar_text(node, source, key);
        } else if (key == "description") {
            def.description = scalar_text(node, source, key);
        } else if (key == "axes") {
            const auto* table = node.as_table();
            if (table == nullptr)
                throw UsageError(where(source, node) + ": [axes] must be a table");
            for (const auto& [axis_key, axis_node] : *table) {
                const std::string name(axis_key.str());
                const AxisInfo& axis = known_axis(name, axis_node, source);
                def.axes[axis.name] = values_of(axis_node, source, name);
            }
        } else if (key == "run") {
            const auto* table = node.as_table();
            if (table == nullptr)
                throw UsageError(where(source, node) + ": [run] must be a table");
            for (const auto& [setting_key, setting_node] : *table) {
                const std::string name(setting_key.str());
                const auto& names = matrix_setting_names();
                if (std::find(names.begin(), names.end(), name) == names.end()) {
                    throw UsageError(
                        fmt::format("{}: unknown run setting '{}': the settings are {}",
                                    where(source, setting_node), name, fmt::join(names, ", ")));
                }
                def.settings[name] = scalar_text(setting_node, source, name);
            }
        } else if (key == "executor") {
            def.executor = parse_executor_table(node, source);
        } else if (key == "exclude") {
            const auto* array = node.as_array();
            if (array == nullptr) {
                throw UsageError(where(source, node) + ": exclude rules are written [[exclude]]");
            }
            for (const auto& rule_node : *array) {
                const auto* rule_table = rule_node.as_table();
                if (rule_table == nullptr) {
                    throw UsageError(where(source, rule_node) +
                                     ": an exclude rule must be a table");
                }
                ExcludeRule rule;
                for (const auto& [axis_key, value_node] : *rule_table) {
                    const std::string name(axis_key.str());
                    const AxisInfo& axis = known_axis(name, value_node, source);
                    const std::string value = scalar_text(value_node, source, name);
                    validate_axis_value(axis, value);
                    rule[axis.name] = value;
                }
                def.excludes.push_back(std::move(rule));
            }
        } else {
            throw UsageError(
                fmt::format("{}: unknown key '{}' (a matrix file has name, "
                            "description, [axes], [run], [executor] and [[exclude]])",
                            where(source, node), key));
        }
    }
    return def;
}

MatrixDefinition load_matrix_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) {
        throw UsageError(
            fmt::format("cannot read matrix file '{}': check the path (examples/ has "
                        "ready-made matrices)",
                        path.string()));
    }
    std::stringstream text;
    text << in.rdbuf();
    return parse_matrix_text(text.str(), path.string());
}

std::vector<Cell> apply_excludes(std::vector<Cell> cells, const std::vector<ExcludeRule>& rules) {
    const auto excluded = [&rules](const Cell& cell) {
        return std::any_of(rules.begin(), rules.end(), [&cell](const ExcludeRule& rule) {
            return std::all_of(rule.begin(), rule.end(), [&cell](const auto& entry) {
                const auto it = cell.values.find(entry.first);
                return it != cell.values.end() && it->second == entry.second;
            });
        });
    };
    cells.erase(std::remove_if(cells.begin(), cells.end(), excluded), cells.end());
    return cells;
}

}  // namespace trainscope::harness
