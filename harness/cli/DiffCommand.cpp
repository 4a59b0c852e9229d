#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "harness/cli/Commands.hpp"
#include "harness/cli/NumberCheck.hpp"
#include "harness/cli/RunTraceLoader.hpp"
#include "harness/cli/UsageError.hpp"
#include "profiler/analysis/TraceDiff.hpp"
#include "reports/csv/TableRenderer.hpp"

namespace trainscope::harness {

namespace {

struct DiffOptions {
    std::string database;
    std::int64_t run_a = 0;
    std::int64_t run_b = 0;
    std::string against;
    std::string what = "both";
    std::string by = "name";
    std::string steps;
    bool exact_names = false;
    bool per_step = false;
    std::string format = "table";
    int top = 0;
};

// One side of the diff: a run of a database, named as the user named it.
struct Side {
    std::string database;
    std::int64_t run = 0;
    profiler::Trace trace;
    [[nodiscard]] std::string label() const { return fmt::format("run {} in '{}'", run, database); }
};

// Whole nanoseconds as microseconds (x / 1000 gives the double nearest the decimal, so
// 111201 ns prints as 111.201, not 111.20100000000001); means to the nanosecond, changes
// to a hundredth of a percent: finer digits are noise.
reports::CsvCell microseconds(double ns) {
    return std::round(ns) / 1000.0;
}
// An empty cell (JSON null) for a name the side lacks.
reports::CsvCell microseconds(const std::optional<double>& ns) {
    return ns ? microseconds(*ns) : reports::CsvCell();
}
reports::CsvCell percent(const std::optional<double>& relative) {
    return relative ? reports::CsvCell(std::round(*relative * 1e4) / 100.0) : reports::CsvCell();
}

// The step range must select steps in both traces: a range that selects none on one side
// would turn every name into "new" or "missing".
void check_steps(const Side& side, const profiler::StepRange& range, const std::string& text) {
    if (!profiler::steps_in_range(side.trace, range).empty())
        return;
    const auto steps = profiler::training_steps(side.trace);
    if (steps.empty()) {
        throw UsageError(
            fmt::format("--steps {}: {} has no training-step ranges (NVTX \"step\" or Kineto "
                        "ProfilerStep#N); leave out --steps to diff the whole traces",
                        text, side.label()));
    }
    std::int64_t low = steps.front().number;
    std::int64_t high = low;
    for (const auto& s : steps) {
        low = std::min(low, s.number);
        high = std::max(high, s.number);
    }
    throw UsageError(
        fmt::format("--steps {}: {} has no step in that range; its steps are numbered {} to {}",
                    text, side.label(), low, high));
}

// "total A (us)", or "A per step (us)" when the times are per step.
std::string time_header(const profiler::TraceDiff& diff, const char* side) {
    return diff.per_step ? fmt::format("{} per step (us)", side)
                         : fmt::format("total {} (us)", side);
}
// "self A (us)" or "self A per step (us)": the time without the ops nested inside.
std::string self_header(const profiler::TraceDiff& diff, const char* side) {
    return diff.per_step ? fmt::format("self {} per step (us)", side)
                         : fmt::format("self {} (us)", side);
}
std::string change_header(const profiler::TraceDiff& diff) {
    return diff.per_step ? "change per step (us)" : "change (us)";
}

reports::CsvTable name_table(const profiler::TraceDiff& diff, int top) {
    reports::CsvTable t;
    t.push_back({"kind", "name", "category", "status", "count A", "count B", self_header(diff, "A"),
                 self_header(diff, "B"), time_header(diff, "A"), time_header(diff, "B"),
                 "mean A (us)", "mean B (us)", change_header(diff), "change (%)"});
    for (const auto& r : diff.rows) {
        if (top > 0 && t.size() > static_cast<std::size_t>(top))
            break;
        t.push_back(
            {std::string(to_string(r.subject)), r.name,
             std::string(profiler::to_string(r.category)), std::string(to_string(r.presence())),
             r.a.count, r.b.count, microseconds(r.a.self_time_ns), microseconds(r.b.self_time_ns),
             microseconds(r.a.time_ns), microseconds(r.b.time_ns), microseconds(r.a.mean_ns()),
             microseconds(r.b.mean_ns()), microseconds(r.change_ns()), percent(r.relative())});
    }
    return t;
}

reports::CsvTable category_table(const profiler::TraceDiff& diff) {
    reports::CsvTable t;
    t.push_back({"kind", "category", "count A", "count B", self_header(diff, "A"),
                 self_header(diff, "B"), time_header(diff, "A"), time_header(diff, "B"),
                 change_header(diff), "change (%)"});
    for (const auto& c : diff.categories) {
        t.push_back({std::string(to_string(c.subject)),
                     std::string(profiler::to_string(c.category)), c.a.count, c.b.count,
                     microseconds(c.a.self_time_ns), microseconds(c.b.self_time_ns),
                     microseconds(c.a.time_ns), microseconds(c.b.time_ns),
                     microseconds(c.change_ns()), percent(c.relative())});
    }
    return t;
}

// A multi-rank run's figures are its ranks' sums (steps per rank); "" when both runs are
// one process.
std::string ranks_note(const profiler::TraceDiff& diff) {
    std::string out;
    for (const auto& [side, ranks] : {std::pair{"A", diff.ranks_a}, std::pair{"B", diff.ranks_b}}) {
        if (ranks > 1)
            out += fmt::format("{}{}: counts and times summed over its {} ranks",
                               out.empty() ? "" : "; ", side, ranks);
    }
    return out.empty() ? out : out + " (training steps counted per rank)";
}

// The plain-text table's heading: what was compared, over which steps, and the totals.
void print_heading(const Side& a, const Side& b, const DiffOptions& options,
                   const profiler::TraceDiff& diff) {
    std::printf("A: %s\nB: %s\n", a.label().c_str(), b.label().c_str());
    std::string selection = options.steps.empty() ? (diff.per_step ? "all steps" : "whole traces")
                                                  : fmt::format("steps {}", options.steps);
    if (diff.per_step)
        selection += ", times per step";
    else if (options.per_step)
        selection += " (in totals: a trace has no step in the selection)";
    std::printf("%s, %s; training steps: A %lld, B %lld\n", selection.c_str(),
                options.exact_names ? "kernel names as recorded"
                                    : "kernel names without template arguments and parameters",
                static_cast<long long>(diff.steps_a), static_cast<long long>(diff.steps_b));
    if (const std::string ranks = ranks_note(diff); !ranks.empty())
        std::printf("%s\n", ranks.c_str());
    for (const auto subject : {profiler::DiffSubject::Kernel, profiler::DiffSubject::Operator}) {
        double ta = 0;
        double tb = 0;
        std::size_t names = 0;
        for (const auto& r : diff.rows) {
            if (r.subject != subject)
                continue;
            // Self times: a nested op's time is in its own row, not again in its parent's.
            ta += r.a.self_time_ns;
            tb += r.b.self_time_ns;
            ++names;
        }
        if (names == 0)
            continue;
        std::printf("%s time%s: A %.3f ms, B %.3f ms, B - A %+.3f ms (%zu names)\n",
                    subject == profiler::DiffSubject::Kernel ? "kernel" : "operator",
                    diff.per_step ? " per step" : "", ta * 1e-6, tb * 1e-6, (tb - ta) * 1e-6,
                    names);
    }
    std::printf("\n");
}

int execute(const DiffOptions& options) {
    const auto format = reports::table_format_from_string(options.format);
    if (!format) {
        throw UsageError(fmt::format("unknown --format '{}'; choose table, csv, json or markdown",
                                     options.format));
    }
    std::optional<profiler::StepRange> range;
    if (!options.steps.empty()) {
        range = profiler::parse_step_range(options.steps);
        if (!range) {
            throw UsageError(fmt::format(
                "--steps '{}' is not a step range: write FROM:TO (inclusive, FROM <= TO), "
                "FROM:, :TO or one step N, with step numbers 0 or more (e.g. --steps 5:10)",
                options.steps));
        }
    }
    const std::string& database_b = options.against.empty() ? options.database : options.against;
    if (options.against.empty() && options.run_a == options.run_b) {
        throw UsageError(fmt::format(
            "A and B are the same run ({}): name two runs, or a run of another database "
            "with --against OTHER.db",
            options.run_a));
    }
    Side a{options.database, options.run_a, load_run_trace(options.database, options.run_a)};
    Side b{database_b, options.run_b, load_run_trace(database_b, options.run_b)};

    profiler::TraceDiffOptions diff_options;
    diff_options.kernels = options.what != "operators";
    diff_options.operators = options.what != "kernels";
    diff_options.exact_names = options.exact_names;
    diff_options.per_step = options.per_step;
    if (range) {
        check_steps(a, *range, options.steps);
        check_steps(b, *range, options.steps);
        diff_options.steps = range;
    }
    const profiler::TraceDiff diff = profiler::diff_traces(a.trace, b.trace, diff_options);
    const reports::CsvTable table =
        options.by == "category" ? category_table(diff) : name_table(diff, options.top);
    if (*format == reports::TableFormat::Text)
        print_heading(a, b, options, diff);
    else if (const std::string ranks = ranks_note(diff); !ranks.empty())
        std::fprintf(stderr, "trainscope diff: %s\n", ranks.c_str());  // the rows stay a table
    std::fflush(stdout);
    reports::render_table(table, *format, std::cout);
    if (*format == reports::TableFormat::Text && options.by != "category" && options.top > 0 &&
        diff.rows.size() > static_cast<std::size_t>(options.top)) {
        std::cout << "... " << diff.rows.size() - static_cast<std::size_t>(options.top)
                  << " more (--top 0 shows all)\n";
    }
    std::cout.flush();
    return 0;
}

}  // namespace

CommandAction add_diff_command(CLI::App& app) {
    auto options = std::make_shared<DiffOptions>();
    CLI::App* cmd = app.add_subcommand(
        "diff",
        "Kernel by kernel and operator by operator, run B against run A: count, self time "
        "(without the ops nested inside), total and mean time in each, the change of self "
        "time, new and missing names; sorted by the absolute change of self time, or by "
        "category (--by category).");
    cmd->add_option("database", options->database, "results database of run A (and of B)")
        ->required();
    cmd->add_option("A", options->run_a, "run id of A (the baseline)")->required();
    cmd->add_option("B", options->run_b, "run id of B")->required();
    cmd->add_option("--against", options->against, "take run B from this results database instead");
    cmd->add_option("--what", options->what, "kernels, operators (host ops) or both")
        ->check(CLI::IsMember({"kernels", "operators", "both"}))
        ->capture_default_str();
    cmd->add_option("--by", options->by, "name (one row per name) or category")
        ->check(CLI::IsMember({"name", "category"}))
        ->capture_default_str();
    cmd->add_option("--steps", options->steps,
                    "only the work of these training steps, FROM:TO inclusive (ProfilerStep#N by "
                    "N, NVTX \"step\" ranges by position from 0)");
    cmd->add_flag("--exact-names", options->exact_names,
                  "compare kernel names as recorded (template arguments and parameters make "
                  "kernels different)");
    cmd->add_flag("--per-step", options->per_step,
                  "times per training step (each side's over its own steps' work), so that "
                  "traces of different lengths compare");
    cmd->add_option("--format", options->format, "table, csv, json or markdown")
        ->capture_default_str();
    cmd->add_option("--top", options->top, "rows to print (0: all)")
        ->check(number_check(0, false))
        ->capture_default_str();
    return [options]() { return execute(*options); };
}

}  // namespace trainscope::harness
