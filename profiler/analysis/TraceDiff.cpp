#include "profiler/analysis/TraceDiff.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/LaunchIndex.hpp"
#include "profiler/analysis/OpSelfTime.hpp"
#include "profiler/analysis/ShortKernelName.hpp"

namespace trainscope::profiler {

namespace {

constexpr std::uint32_t kUnset = 0xffffffffU;
constexpr std::uint32_t kSkip = 0xfffffffeU;

std::optional<double> relative_change(const DiffSide& a, const DiffSide& b) {
    if (a.self_ns == 0)
        return std::nullopt;
    return (b.self_time_ns - a.self_time_ns) / a.self_time_ns;
}

void add_to(DiffSide& sum, const DiffSide& part) {
    sum.count += part.count;
    sum.total_ns += part.total_ns;
    sum.time_ns += part.time_ns;
    sum.self_ns += part.self_ns;
    sum.self_time_ns += part.self_time_ns;
}

// The [begin, end) ranges of the selected steps of each rank, sorted by begin (a
// multi-rank trace's ranks run their steps at the same time), and how many steps that is
// per rank: step N is step N on every rank.
struct SelectedSteps {
    std::map<std::int32_t, std::vector<TimeWindow>> by_rank;
    std::int64_t per_rank = 0;
};
SelectedSteps selected_steps(const Trace& trace, const StepRange& range) {
    SelectedSteps out;
    std::set<std::int64_t> numbers;
    for (const TrainingStep& s : training_steps(trace)) {
        if (!range.holds(s.number))
            continue;
        out.by_rank[s.rank].push_back({s.begin_ns, s.end_ns});
        numbers.insert(s.number);
    }
    out.per_rank = static_cast<std::int64_t>(numbers.size());
    return out;
}

// Kineto's python_function events come in as host ops too ("nn.Module: ViTModel_0",
// "torch/nn/modules/module.py(1743): _call_impl", "<frozen os>(808): getenv",
// "<built-in method ...>"); they are Python frames around the operators, not operators,
// and nest dozens deep. A frame names its source line as "(N): ".
bool is_python_frame(std::string_view name) {
    if (name.starts_with("nn.Module: ") || name.starts_with("<built-in "))
        return true;
    const std::size_t colon = name.find("): ");
    if (colon == std::string_view::npos)
        return false;
    std::size_t open = colon;
    while (open > 0 && name[open - 1] >= '0' && name[open - 1] <= '9')
        --open;
    return open < colon && open > 0 && name[open - 1] == '(';
}

bool in_any(const SelectedSteps& steps, std::int32_t rank, std::int64_t t) {
    const auto of_rank = steps.by_rank.find(rank);
    if (of_rank == steps.by_rank.end())
        return false;
    const std::vector<TimeWindow>& ranges = of_rank->second;
    // One rank's steps do not overlap one another, so the last range beginning at or
    // before t is the only one that can hold it.
    const auto it =
        std::upper_bound(ranges.begin(), ranges.end(), t,
                         [](std::int64_t x, const TimeWindow& w) { return x < w.begin_ns; });
    return it != ranges.begin() && std::prev(it)->contains(t);
}

class DiffBuilder {
  public:
    explicit DiffBuilder(const TraceDiffOptions& options) : options_(options) {}

    // Adds one trace as side A (first) or B.
    std::int64_t add(const Trace& trace, bool side_a) {
        const bool host_ops = is_host_op_trace(trace);
        const TimeWindow& window = side_a ? options_.window_a : options_.window_b;
        const SelectedSteps steps = selected_steps(trace, options_.steps.value_or(StepRange{}));
        std::optional<LaunchIndex> launches;
        if (options_.steps)
            launches.emplace(trace);
        // Row of each interned name per subject, decided once per name.
        std::vector<std::uint32_t> kernel_row(trace.strings.size(), kUnset);
        std::vector<std::uint32_t> operator_row(trace.strings.size(), kUnset);
        // Only host ops nest; without them in the diff every self time is a duration.
        const std::vector<std::int64_t> self = options_.operators || host_ops
                                                   ? op_self_times(trace, ops_of(trace))
                                                   : std::vector<std::int64_t>{};
        for (std::size_t i = 0; i < trace.activities.size(); ++i) {
            const Activity& a = trace.activities[i];
            const bool kernel = options_.kernels && is_device_work(a.kind, host_ops);
            // In a CPU-backend trace the ops are the device's work: listed once, as kernels.
            const bool op = options_.operators && !host_ops && a.kind == ActivityKind::HostOp;
            if ((!kernel && !op) || a.name >= trace.strings.size() || !window.contains(a.start_ns))
                continue;
            // The step is the one of the rank the work ran on.
            if (options_.steps &&
                !in_any(steps, trace.lanes[a.lane].rank, origin(trace, a, *launches)))
                continue;
            std::uint32_t& row = (kernel ? kernel_row : operator_row)[a.name];
            if (row == kUnset)
                row = row_of(kernel ? DiffSubject::Kernel : DiffSubject::Operator, a.kind,
                             trace.strings.at(a.name), side_a);
            if (row == kSkip)
                continue;
            DiffSide& side = side_a ? rows_[row].a : rows_[row].b;
            ++side.count;
            side.total_ns += a.duration_ns();
            side.self_ns += self.empty() ? a.duration_ns() : self[i];
        }
        return steps.per_rank;
    }

    std::vector<TraceDiffRow> take_rows() { return std::move(rows_); }

  private:
    // When the activity's work was asked for: GPU work at its launch.
    static std::int64_t origin(const Trace& trace, const Activity& a, const LaunchIndex& launches) {
        if (is_gpu_work(a.kind) && a.correlation != 0) {
            if (const auto launch = launches.launch_of(a))
                return trace.activities[*launch].start_ns;
        }
        return a.start_ns;
    }

    // The host ops that are operators: the parents and children of self time.
    static std::vector<bool> ops_of(const Trace& trace) {
        std::vector<signed char> by_name(trace.strings.size(), -1);  // -1: not decided yet
        std::vector<bool> ops(trace.activities.size(), false);
        for (std::size_t i = 0; i < trace.activities.size(); ++i) {
            const Activity& a = trace.activities[i];
            if (a.kind != ActivityKind::HostOp || a.name >= trace.strings.size())
                continue;
            signed char& op = by_name[a.name];
            if (op < 0)
                op = is_operator_name(trace.strings.at(a.name)) ? 1 : 0;
            ops[i] = op == 1;
        }
        return ops;
    }

    static bool is_operator_name(const std::string& name) {
        return !is_training_step_name(name) && !is_python_frame(name);
    }

    std::uint32_t row_of(DiffSubject subject, ActivityKind kind, const std::string& recorded,
                         bool side_a) {
        if (kind == ActivityKind::HostOp && !is_operator_name(recorded))
            return kSkip;
        std::string name = options_.exact_names || kind != ActivityKind::Kernel
                               ? recorded
                               : normalize_kernel_name(recorded);
        auto [it, inserted] =
            index_.try_emplace({subject, name}, static_cast<std::uint32_t>(rows_.size()));
        if (inserted) {
            TraceDiffRow row;
            row.subject = subject;
            row.category = classify_work(kind, name);
            row.name = std::move(name);
            rows_.push_back(std::move(row));
        }
        // A recorded name is one variant, however many sides it is seen on (A is added
        // first; each side asks once per name).
        if (side_a ? seen_a_.insert({subject, recorded}).second
                   : !seen_a_.contains({subject, recorded}))
            ++rows_[it->second].variants;
        return it->second;
    }

    const TraceDiffOptions& options_;
    std::vector<TraceDiffRow> rows_;
    std::map<std::pair<DiffSubject, std::string>, std::uint32_t> index_;
    std::set<std::pair<DiffSubject, std::string>> seen_a_;
};

template <typename Row>
bool larger_change_first(const Row& x, const Row& y) {
    const double cx = std::abs(x.change_ns());
    const double cy = std::abs(y.change_ns());
    if (cx != cy)
        return cx > cy;
    return x.subject < y.subject;
}

}  // namespace

std::string_view to_string(DiffSubject subject) {
    return subject == DiffSubject::Kernel ? "kernel" : "operator";
}

std::string_view to_string(DiffPresence presence) {
    switch (presence) {
        case DiffPresence::New:
            return "new";
        case DiffPresence::Missing:
            return "missing";
        case DiffPresence::Both:
            break;
    }
    return "both";
}

std::optional<double> TraceDiffRow::relative() const {
    return relative_change(a, b);
}

DiffPresence TraceDiffRow::presence() const {
    if (a.count == 0)
        return DiffPresence::New;
    if (b.count == 0)
        return DiffPresence::Missing;
    return DiffPresence::Both;
}

std::optional<double> CategoryDiffRow::relative() const {
    return relative_change(a, b);
}

TraceDiff diff_traces(const Trace& a, const Trace& b, const TraceDiffOptions& options) {
    TraceDiff diff;
    TraceDiffOptions used = options;
    used.per_step = options.per_step && count_training_steps(a) > 0 && count_training_steps(b) > 0;
    if (used.per_step && !used.steps)
        used.steps = StepRange{};  // the steps' work alone: no set-up, no evaluation
    DiffBuilder builder(used);
    diff.steps_a = builder.add(a, true);
    diff.steps_b = builder.add(b, false);
    diff.ranks_a = std::max(a.world_size, 1);
    diff.ranks_b = std::max(b.world_size, 1);
    diff.rows = builder.take_rows();
    // A range that selects no step of a side leaves it nothing to divide by: totals.
    diff.per_step = used.per_step && diff.steps_a > 0 && diff.steps_b > 0;
    const double divisor_a = diff.per_step ? static_cast<double>(diff.steps_a) : 1.0;
    const double divisor_b = diff.per_step ? static_cast<double>(diff.steps_b) : 1.0;
    for (TraceDiffRow& row : diff.rows) {
        row.a.time_ns = static_cast<double>(row.a.total_ns) / divisor_a;
        row.b.time_ns = static_cast<double>(row.b.total_ns) / divisor_b;
        row.a.self_time_ns = static_cast<double>(row.a.self_ns) / divisor_a;
        row.b.self_time_ns = static_cast<double>(row.b.self_ns) / divisor_b;
    }
    std::sort(diff.rows.begin(), diff.rows.end(), [](const TraceDiffRow& x, const TraceDiffRow& y) {
        if (larger_change_first(x, y) || larger_change_first(y, x))
            return larger_change_first(x, y);
        return x.name < y.name;
    });
    std::map<std::pair<DiffSubject, KernelCategory>, CategoryDiffRow> by_category;
    for (const TraceDiffRow& row : diff.rows) {
        CategoryDiffRow& c = by_category[{row.subject, row.category}];
        c.subject = row.subject;
        c.category = row.category;
        add_to(c.a, row.a);
        add_to(c.b, row.b);
    }
    for (const auto& [key, row] : by_category)
        diff.categories.push_back(row);
    // Ties keep the map's order: subject, then category.
    std::stable_sort(diff.categories.begin(), diff.categories.end(),
                     larger_change_first<CategoryDiffRow>);
    return diff;
}

std::optional<StepRange> parse_step_range(std::string_view text) {
    const auto number = [](std::string_view s) -> std::optional<std::int64_t> {
        std::int64_t n = 0;
        const char* end = s.data() + s.size();
        if (s.empty() || s.front() == '-' || s.front() == '+')
            return std::nullopt;
        const auto [ptr, ec] = std::from_chars(s.data(), end, n);
        if (ec != std::errc{} || ptr != end)
            return std::nullopt;
        return n;
    };
    const std::size_t colon = text.find(':');
    StepRange range;
    if (colon == std::string_view::npos) {
        range.first = range.last = number(text);
        return range.first ? std::optional(range) : std::nullopt;
    }
    const std::string_view from = text.substr(0, colon);
    const std::string_view to = text.substr(colon + 1);
    if (from.empty() && to.empty())
        return std::nullopt;
    if (!from.empty() && !(range.first = number(from)))
        return std::nullopt;
    if (!to.empty() && !(range.last = number(to)))
        return std::nullopt;
    if (range.first && range.last && *range.first > *range.last)
        return std::nullopt;
    return range;
}

std::vector<std::int64_t> steps_in_range(const Trace& trace, const StepRange& range) {
    std::set<std::int64_t> numbers;  // once per step, not once per rank
    for (const TrainingStep& s : training_steps(trace)) {
        if (range.holds(s.number))
            numbers.insert(s.number);
    }
    return {numbers.begin(), numbers.end()};
}

}  // namespace trainscope::profiler
