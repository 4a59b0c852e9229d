#include "harness/executor/ExecutorSettings.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>

#include "harness/cli/UsageError.hpp"

namespace trainscope::harness {

namespace {

std::optional<long> parse_number(const std::string& text) {
    long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty() || value < 0)
        return std::nullopt;
    return value;
}

int parse_count(const std::string& name, const std::string& text, int minimum) {
    const auto value = parse_number(text);
    if (!value || *value < minimum || *value > 1'000'000) {
        throw UsageError(
            fmt::format("executor setting {} = '{}' must be a whole number of at least {}", name,
                        text, minimum));
    }
    return static_cast<int>(*value);
}

bool parse_flag(const std::string& name, const std::string& text) {
    if (text == "on" || text == "true")
        return true;
    if (text == "off" || text == "false")
        return false;
    throw UsageError(fmt::format("executor setting {} = '{}' must be true or false", name, text));
}

}  // namespace

const std::vector<std::string>& executor_setting_names() {
    static const std::vector<std::string> names{"kind",          "partition",     "account",
                                                "time_per_cell", "gpus_per_cell", "max_parallel",
                                                "sbatch_args",   "wait"};
    return names;
}

std::optional<long> parse_slurm_duration(const std::string& text) {
    std::string rest = text;
    long days = 0;
    const bool with_days = rest.find('-') != std::string::npos;
    if (const auto dash = rest.find('-'); with_days) {
        const auto d = parse_number(rest.substr(0, dash));
        if (!d)
            return std::nullopt;
        days = *d;
        rest = rest.substr(dash + 1);
    }
    std::vector<long> parts;
    std::size_t start = 0;
    for (;;) {
        const auto colon = rest.find(':', start);
        const auto part = parse_number(rest.substr(start, colon - start));
        if (!part)
            return std::nullopt;
        parts.push_back(*part);
        if (colon == std::string::npos)
            break;
        start = colon + 1;
    }
    if (parts.size() > 3)
        return std::nullopt;
    long seconds = 0;
    if (with_days) {
        // With days (even 0), Slurm reads D-HH, D-HH:MM, D-HH:MM:SS.
        const long scale[] = {3600, 60, 1};
        for (std::size_t i = 0; i < parts.size(); ++i)
            seconds += parts[i] * scale[i];
        return days * 86400 + seconds;
    }
    for (const long part : parts)
        seconds = seconds * 60 + part;
    if (parts.size() == 1)
        seconds *= 60;  // a bare number is minutes to Slurm
    return seconds;
}

ExecutorSettings resolve_executor_settings(const std::map<std::string, std::string>& file,
                                           const ExecutorFlags& flags) {
    const auto pick = [&file](const std::optional<std::string>& flag,
                              const std::string& name) -> std::optional<std::string> {
        if (flag)
            return flag;
        const auto it = file.find(name);
        if (it == file.end())
            return std::nullopt;
        return it->second;
    };
    const auto pick_int = [&file](const std::optional<int>& flag,
                                  const std::string& name) -> std::optional<std::string> {
        if (flag)
            return std::to_string(*flag);
        const auto it = file.find(name);
        if (it == file.end())
            return std::nullopt;
        return it->second;
    };

    ExecutorSettings settings;
    const std::string kind = pick(flags.kind, "kind").value_or("local");
    if (kind == "slurm") {
        settings.kind = ExecutorSettings::Kind::Slurm;
    } else if (kind != "local") {
        throw UsageError(fmt::format("--executor '{}': the executors are local and slurm", kind));
    }
    settings.partition = pick(flags.partition, "partition").value_or("");
    settings.account = pick(flags.account, "account").value_or("");
    settings.time_per_cell = pick(flags.time_per_cell, "time_per_cell").value_or("");
    if (!settings.time_per_cell.empty() && !parse_slurm_duration(settings.time_per_cell)) {
        throw UsageError(
            fmt::format("--time-per-cell '{}' is not a Slurm time limit: write HH:MM:SS, MM:SS, "
                        "minutes or D-HH:MM:SS, e.g. 00:20:00",
                        settings.time_per_cell));
    }
    if (const auto g = pick_int(flags.gpus_per_cell, "gpus_per_cell"))
        settings.gpus_per_cell = parse_count("gpus_per_cell", *g, 0);
    if (const auto p = pick_int(flags.max_parallel, "max_parallel"))
        settings.max_parallel = parse_count("max_parallel", *p, 1);
    if (const auto it = file.find("sbatch_args"); it != file.end()) {
        // The file reader gives a list as its elements joined by a newline.
        std::size_t start = 0;
        const std::string& text = it->second;
        while (start <= text.size()) {
            const auto end = text.find('\n', start);
            const std::string arg = text.substr(start, end - start);
            if (!arg.empty())
                settings.sbatch_args.push_back(arg);
            if (end == std::string::npos)
                break;
            start = end + 1;
        }
    }
    for (const auto& arg : flags.sbatch_args)
        settings.sbatch_args.push_back(arg);
    if (flags.wait) {
        settings.wait = *flags.wait;
    } else if (const auto it = file.find("wait"); it != file.end()) {
        settings.wait = parse_flag("wait", it->second);
    }
    if (settings.kind == ExecutorSettings::Kind::Local) {
        // The file's Slurm settings wait unused under --executor local; flags that only
        // Slurm takes are a mistake worth saying.
        const bool slurm_flags = flags.partition || flags.account || flags.time_per_cell ||
                                 flags.gpus_per_cell || flags.max_parallel ||
                                 !flags.sbatch_args.empty() || flags.wait;
        if (slurm_flags) {
            throw UsageError(
                "--partition, --account, --time-per-cell, --gpus-per-cell, --max-parallel, "
                "--sbatch-arg, --wait and --no-wait need --executor slurm (or [executor] kind = "
                "\"slurm\" in the matrix file)");
        }
        return ExecutorSettings{};
    }
    return settings;
}

}  // namespace trainscope::harness
