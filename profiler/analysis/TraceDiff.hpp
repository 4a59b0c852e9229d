#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/analysis/KernelCategory.hpp"
#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/analysis/TrainingSteps.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// What a diff compares: the device's work by name (kernels, copies, sets; a CPU-backend
// trace's ops, as in analyze_kernel_breakdown) or the host operators (Kineto cpu_op
// events, trainscope's host ops of a GPU run).
enum class DiffSubject : unsigned char { Kernel = 0, Operator = 1 };
std::string_view to_string(DiffSubject subject);

// Whether a name ran in both traces, only in B (new) or only in A (missing in B).
enum class DiffPresence : unsigned char { Both = 0, New = 1, Missing = 2 };
std::string_view to_string(DiffPresence presence);

// Inclusive step numbers (TrainingStep::number); an absent end is open.
struct StepRange {
    std::optional<std::int64_t> first;
    std::optional<std::int64_t> last;
    [[nodiscard]] bool holds(std::int64_t number) const {
        return (!first || number >= *first) && (!last || number <= *last);
    }
};

struct TraceDiffOptions {
    bool kernels = true;
    bool operators = true;
    // Compare the names as recorded, not normalize_kernel_name's (template arguments and
    // parameter lists make kernels different).
    bool exact_names = false;
    // Only the work that starts in the window (whole activities, as
    // analyze_kernel_breakdown counts them), one window per trace.
    TimeWindow window_a;
    TimeWindow window_b;
    // Only the work of these training steps, the same numbers in both traces: host work
    // by its start, GPU work by the start of the API call that launched it (the GPU runs
    // behind the host), or its own start when the trace has no launch for it.
    std::optional<StepRange> steps;
    // Times per training step: each side's times divided by its number of selected steps
    // (all its steps without `steps`, whose work alone then counts), so that traces of
    // different lengths compare. Applied only when both traces have steps
    // (TraceDiff::per_step says whether it was).
    bool per_step = false;
};

// One name's work on one side. Two times, as PyTorch's profiler table gives them: total
// (summed durations; an op's nested ops count in it too) and self (the time it is the
// innermost op on its lane, op_self_times: less the ops nested in it). Nested ops
// (aten::linear holding aten::addmm) are rows of their own, so only self times add up
// across rows without counting the same time twice: the changes, the order, the
// categories and the totals over rows use self time. A kernel, copy or set nests
// nothing: its self time is its total.
struct DiffSide {
    std::int64_t count = 0;
    std::int64_t total_ns = 0;  // summed durations (nested operators count in their parents too)
    double time_ns = 0;         // total_ns, or total_ns per step (TraceDiff::per_step)
    std::int64_t self_ns = 0;   // summed self times
    double self_time_ns = 0;    // self_ns, or self_ns per step
    // None when the name did not run on this side: a mean of 0 would read as a kernel
    // that took no time.
    [[nodiscard]] std::optional<double> mean_ns() const {
        if (count == 0)
            return std::nullopt;
        return static_cast<double>(total_ns) / static_cast<double>(count);
    }
};

struct TraceDiffRow {
    DiffSubject subject = DiffSubject::Kernel;
    std::string name;  // normalised unless exact_names
    KernelCategory category = KernelCategory::Other;
    DiffSide a;
    DiffSide b;
    std::int64_t variants = 0;  // distinct recorded names folded into this row, both sides

    // B − A of self_time_ns (per step when TraceDiff::per_step).
    [[nodiscard]] double change_ns() const { return b.self_time_ns - a.self_time_ns; }
    // change / A's self time; none when A has none.
    [[nodiscard]] std::optional<double> relative() const;
    [[nodiscard]] DiffPresence presence() const;
};

struct CategoryDiffRow {
    DiffSubject subject = DiffSubject::Kernel;
    KernelCategory category = KernelCategory::Other;
    DiffSide a;
    DiffSide b;
    [[nodiscard]] double change_ns() const { return b.self_time_ns - a.self_time_ns; }
    [[nodiscard]] std::optional<double> relative() const;
};

struct TraceDiff {
    // By the absolute change of self time, largest first; ties by subject, then name.
    std::vector<TraceDiffRow> rows;
    // The same per category (rows summed: self times add up), ordered the same way.
    std::vector<CategoryDiffRow> categories;
    // Training steps of each trace inside the selection (all of them without `steps`),
    // per rank: the per-step divisor. A multi-rank trace's step N is step N of every rank.
    std::int64_t steps_a = 0;
    std::int64_t steps_b = 0;
    // Ranks of each trace (Trace::world_size): a multi-rank trace's counts and times are
    // summed over its ranks (per step: the step's work on all ranks).
    std::int32_t ranks_a = 1;
    std::int32_t ranks_b = 1;
    bool per_step = false;  // time_ns and the changes are per training step
};

// Kernel by kernel and operator by operator, B against A. Training-step ranges
// (is_training_step_name) are steps and Kineto's python_function frames ("nn.Module: X",
// "file.py(12): f", "<frozen os>(8): f", "<built-in ...>") wrap operators: host ops of
// those names are left out, of the operators and of a CPU trace's ops alike, and are
// nobody's parent for self time. An op's self time leaves out all the ops nested in it,
// selected or not (a window or a step range selects an op by its start).
TraceDiff diff_traces(const Trace& a, const Trace& b, const TraceDiffOptions& options = {});

// "FROM:TO", "FROM:", ":TO" or "N" (inclusive step numbers); nullopt when malformed.
std::optional<StepRange> parse_step_range(std::string_view text);

// The numbers of the trace's training steps that the range holds, once each (sorted).
std::vector<std::int64_t> steps_in_range(const Trace& trace, const StepRange& range);

}  // namespace trainscope::profiler
