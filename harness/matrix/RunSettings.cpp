#include "harness/matrix/RunSettings.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "harness/cli/UsageError.hpp"
#include "harness/environment/HostEnvironment.hpp"

namespace trainscope::harness {

namespace {

constexpr std::int64_t kMaxCount = 1'000'000'000'000;  // steps: far beyond any real run
constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr double kMaxSeconds = 1e9;  // about 31 years

using K = RunSettingInfo::Kind;

RunSettingInfo integer(std::string_view name, std::string_view flag, std::int64_t lo,
                       std::int64_t hi) {
    return RunSettingInfo{name, flag, K::Integer, lo, hi, 0, 0, false};
}

RunSettingInfo number(std::string_view name, std::string_view flag, double lo, double hi,
                      bool lo_exclusive) {
    return RunSettingInfo{name, flag, K::Number, 0, 0, lo, hi, lo_exclusive};
}

[[noreturn]] void refuse(const SettingText& value, const std::string& expected) {
    throw UsageError(fmt::format("{} '{}' is not {}", value.origin, value.text, expected));
}

}  // namespace

int max_cpu_threads() {
    return 4 * hardware_threads();
}

const std::vector<RunSettingInfo>& run_setting_catalog() {
    static const std::vector<RunSettingInfo> settings{
        integer("steps", "--steps", 1, kMaxCount),
        integer("epochs", "--epochs", 1, 1'000'000),
        integer("warmup", "--warmup", 0, kMaxCount),
        integer("threads", "--threads", 1, max_cpu_threads()),
        // The store keeps the seed as a signed 64-bit integer.
        integer("seed", "--seed", 0, std::numeric_limits<std::int64_t>::max()),
        RunSettingInfo{"data_dir", "--data-dir", K::Text, 0, 0, 0, 0, false},
        RunSettingInfo{"input", "--input", K::Text, 0, 0, 0, 0, false},
        integer("classes", "--classes", 1, 1'000'000),
        number("target_accuracy", "--target-accuracy", 0.0, 1.0, false),
        integer("eval_every", "--eval-every", 0, kMaxCount),
        number("rse", "--rse", 0.0, 1.0, true),
        integer("min_steps", "--min-steps", 1, kMaxCount),
        number("max_time", "--max-time", 0.0, kMaxSeconds, true),
        RunSettingInfo{"python", "--python", K::Text, 0, 0, 0, 0, false},
        integer("timeout", "--timeout", 1, std::min<std::int64_t>(kMaxInt, 1'000'000'000)),
    };
    return settings;
}

const RunSettingInfo* find_run_setting(std::string_view name) {
    for (const auto& s : run_setting_catalog()) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

std::int64_t parse_integer_setting(const RunSettingInfo& setting, const SettingText& value) {
    const std::string expected =
        fmt::format("a whole number from {} to {}", setting.int_min, setting.int_max) +
        (setting.name == "threads" ? " (four per hardware thread of this machine)" : "");
    std::int64_t parsed = 0;
    const char* begin = value.text.data();
    const char* end = begin + value.text.size();
    const auto [stop, ec] = std::from_chars(begin, end, parsed);
    if (ec != std::errc{} || stop != end || parsed < setting.int_min || parsed > setting.int_max)
        refuse(value, expected);
    return parsed;
}

double parse_number_setting(const RunSettingInfo& setting, const SettingText& value) {
    const std::string expected =
        fmt::format("a number {} {} {} {}", setting.min_exclusive ? "above" : "from", setting.min,
                    setting.min_exclusive ? "and at most" : "to", setting.max);
    double parsed = 0;
    const char* begin = value.text.data();
    const char* end = begin + value.text.size();
    const auto [stop, ec] = std::from_chars(begin, end, parsed);
    const bool below = setting.min_exclusive ? !(parsed > setting.min) : !(parsed >= setting.min);
    if (ec != std::errc{} || stop != end || !std::isfinite(parsed) || below || parsed > setting.max)
        refuse(value, expected);
    return parsed;
}

std::vector<std::string> split_axis_values(std::string_view flag,
                                           const std::vector<std::string>& given) {
    std::vector<std::string> values;
    for (const std::string& text : given) {
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = text.find(',', start);
            const std::string item =
                text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            if (item.empty()) {
                throw UsageError(fmt::format(
                    "{} '{}' has an empty item: write the values separated by single commas, "
                    "e.g. 32,64",
                    flag, text));
            }
            values.push_back(item);
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
    }
    return values;
}

}  // namespace trainscope::harness
