#include "harness/matrix/Cell.hpp"

#include <algorithm>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string_view>

#include "harness/cli/UsageError.hpp"
#include "harness/matrix/AxisCatalog.hpp"

namespace trainscope::harness {

namespace {

// Varies fastest in the expansion: the cells a comparison across frameworks pairs run
// one after the other.
constexpr std::string_view kInnermostAxis = "framework";

}  // namespace

const std::string& Cell::at(const std::string& axis) const {
    const auto it = values.find(axis);
    if (it == values.end())
        throw std::logic_error("cell has no axis '" + axis + "'");
    return it->second;
}

namespace {

// A value may hold the key's separators (a dataset folder "/data/a;b=c"): ';', '=' and
// the escape itself are written after a backslash. Every other character stays as it
// is, so a key without them reads as every key written before the escape was.
std::string escaped(const std::string& value) {
    std::string out;
    out.reserve(value.size());
    for (const char c : value) {
        if (c == ';' || c == '=' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

// The text from `at` to the next unescaped ';' (or '=' too, for an axis name), unescaped;
// `at` is left on the separator. A backslash before any other character (in a key from
// before the escape) is kept as it is.
std::string next_part(const std::string& key, std::size_t& at, bool name) {
    std::string part;
    for (; at < key.size() && key[at] != ';' && !(name && key[at] == '='); ++at) {
        const bool escape = key[at] == '\\' && at + 1 < key.size() &&
                            (key[at + 1] == ';' || key[at + 1] == '=' || key[at + 1] == '\\');
        at += escape ? 1 : 0;
        part += key[at];
    }
    return part;
}

}  // namespace

std::string Cell::key() const {
    std::string key;
    for (const auto& axis : axis_catalog()) {
        const auto it = values.find(axis.name);
        if (it == values.end())
            continue;
        if (!key.empty())
            key += ';';
        key += axis.name + "=" + escaped(it->second);
    }
    return key;
}

Cell Cell::from_key(const std::string& key) {
    Cell cell;
    for (std::size_t at = 0; at < key.size(); ++at) {  // ++at: past the ';'
        const std::string name = next_part(key, at, true);
        if (at < key.size() && key[at] == '=') {  // a pair without '=' is skipped
            ++at;
            cell.values[name] = next_part(key, at, false);
        }
    }
    return cell;
}

std::vector<Cell> expand_matrix(const AxisValues& axes) {
    for (const auto& [name, values] : axes) {
        const AxisInfo* axis = find_axis(name);
        if (axis == nullptr) {
            std::string known;
            for (const auto& a : axis_catalog())
                known += (known.empty() ? "" : ", ") + a.name;
            throw UsageError("unknown axis '" + name + "': the axes are " + known);
        }
        if (values.empty())
            throw UsageError("axis '" + name + "' has no values");
        std::set<std::string> seen;
        for (const auto& v : values) {
            validate_axis_value(*axis, v);
            if (!seen.insert(v).second) {
                throw UsageError("axis '" + name + "' lists the value '" + v + "' twice");
            }
        }
    }
    const auto values_of = [&](const AxisInfo& axis) {
        const auto it = axes.find(axis.name);
        return it != axes.end() ? it->second : std::vector<std::string>{axis.default_value};
    };
    std::vector<Cell> cells{Cell{}};
    const auto add_axis = [&cells](const std::string& name,
                                   const std::vector<std::string>& values) {
        std::vector<Cell> next;
        next.reserve(cells.size() * values.size());
        for (const auto& cell : cells) {
            for (const auto& v : values) {
                Cell c = cell;
                c.values[name] = v;
                next.push_back(std::move(c));
            }
        }
        cells = std::move(next);
    };
    for (const auto& axis : axis_catalog()) {
        if (axis.name != kInnermostAxis)
            add_axis(axis.name, values_of(axis));
    }
    add_axis(std::string(kInnermostAxis), values_of(*find_axis(kInnermostAxis)));
    return cells;
}

void alternate_framework_order(std::vector<Cell>& cells) {
    const auto same_case = [](const Cell& a, const Cell& b) {
        auto x = a.values;
        auto y = b.values;
        x.erase(std::string(kInnermostAxis));
        y.erase(std::string(kInnermostAxis));
        return x == y;
    };
    std::size_t case_number = 0;
    for (auto first = cells.begin(); first != cells.end();) {
        auto last = std::next(first);
        while (last != cells.end() && same_case(*first, *last))
            ++last;
        const auto size = static_cast<std::size_t>(last - first);
        if (size > 1) {
            std::rotate(first, first + static_cast<std::ptrdiff_t>(case_number % size), last);
            ++case_number;
        }
        first = last;
    }
}

std::vector<Cell> deduplicate(std::vector<Cell> cells) {
    std::set<std::string> seen;
    std::vector<Cell> unique;
    for (auto& c : cells) {
        if (seen.insert(c.key()).second)
            unique.push_back(std::move(c));
    }
    return unique;
}

std::vector<std::string> varying_axes(const std::vector<Cell>& cells) {
    std::vector<std::string> names;
    for (const auto& axis : axis_catalog()) {
        std::set<std::string> values;
        for (const auto& c : cells) {
            const auto it = c.values.find(axis.name);
            if (it != c.values.end())
                values.insert(it->second);
        }
        if (values.size() > 1)
            names.push_back(axis.name);
    }
    return names;
}

}  // namespace trainscope::harness
