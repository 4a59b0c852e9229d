#include "reports/csv/MatrixPivot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "reports/csv/RunsCsv.hpp"

namespace trainscope::reports {

namespace {

std::optional<double> as_number(const std::string& text) {
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) {
        if (!out.empty())
            out += ", ";
        out += n;
    }
    return out;
}

void check_axis(const std::string& axis, const char* option) {
    const auto& axes = axis_names();
    if (std::find(axes.begin(), axes.end(), axis) == axes.end()) {
        throw PivotError(
            fmt::format("unknown axis '{}' for {}; choose one of: {}", axis, option, join(axes)));
    }
}

}  // namespace

std::vector<std::string> pivot_metric_names(const std::vector<RunRecord>& runs) {
    std::vector<std::string> names = runs_csv_metric_columns();
    std::set<std::string> extra;
    for (const auto& run : runs) {
        for (const auto& m : run.metrics) {
            if (std::find(names.begin(), names.end(), m.name) == names.end())
                extra.insert(m.name);
        }
    }
    names.insert(names.end(), extra.begin(), extra.end());
    return names;
}

std::vector<std::string> pivot_axis_values(const std::vector<RunRecord>& runs,
                                           const std::string& axis) {
    std::set<std::string> unique;
    for (const auto& run : runs) {
        std::string value = axis_value(run.axes, axis);
        if (!value.empty())  // an imported trace has no axes
            unique.insert(std::move(value));
    }
    std::vector<std::string> values(unique.begin(), unique.end());
    const bool numeric = std::all_of(values.begin(), values.end(),
                                     [](const std::string& v) { return as_number(v).has_value(); });
    if (numeric) {
        std::stable_sort(values.begin(), values.end(), [](const auto& a, const auto& b) {
            return *as_number(a) < *as_number(b);
        });
    }
    return values;
}

CsvTable matrix_pivot_table(const std::vector<RunRecord>& runs, const PivotSpec& spec) {
    const auto metrics = pivot_metric_names(runs);
    if (std::find(metrics.begin(), metrics.end(), spec.metric) == metrics.end()) {
        throw PivotError(fmt::format("unknown metric '{}' for --metric; choose one of: {}",
                                     spec.metric, join(metrics)));
    }
    check_axis(spec.rows, "--rows");
    check_axis(spec.cols, "--cols");
    if (spec.rows == spec.cols) {
        throw PivotError(
            fmt::format("--rows and --cols are both '{}'; choose two different axes", spec.rows));
    }
    const auto row_values = pivot_axis_values(runs, spec.rows);
    const auto col_values = pivot_axis_values(runs, spec.cols);

    std::map<std::pair<std::string, std::string>, std::pair<double, int>> sums;
    for (const auto& run : runs) {
        if (run.status != RunStatus::Ok)
            continue;
        const Metric* m = run.find_metric(spec.metric);
        if (m == nullptr)
            continue;
        std::pair<std::string, std::string> key{axis_value(run.axes, spec.rows),
                                                axis_value(run.axes, spec.cols)};
        if (key.first.empty() || key.second.empty())
            continue;
        auto& [sum, count] = sums[key];
        sum += m->value;
        ++count;
    }

    CsvTable table;
    std::vector<CsvCell> header{fmt::format("{} \\ {}: {}", spec.rows, spec.cols, spec.metric)};
    for (const auto& c : col_values)
        header.emplace_back(c);
    table.push_back(std::move(header));
    for (const auto& r : row_values) {
        std::vector<CsvCell> row;
        if (const auto number = as_number(r))
            row.emplace_back(*number);
        else
            row.emplace_back(r);
        for (const auto& c : col_values) {
            const auto it = sums.find({r, c});
            row.emplace_back(it != sums.end() ? CsvCell(it->second.first / it->second.second)
                                              : CsvCell());
        }
        table.push_back(std::move(row));
    }
    return table;
}

}  // namespace trainscope::reports
