#include "harness/cli/NumberCheck.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>

namespace trainscope::harness {

CLI::Validator number_check(double min, bool min_exclusive, double max) {
    const std::string expected =
        std::isinf(max)
            ? fmt::format("a number {} {}", min_exclusive ? "above" : "of at least", min)
            : fmt::format("a number {} {} {} {}", min_exclusive ? "above" : "from", min,
                          min_exclusive ? "and at most" : "to", max);
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            double value = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            const bool below = min_exclusive ? !(value > min) : !(value >= min);
            if (ec != std::errc{} || end != text.data() + text.size() || std::isnan(value) ||
                below || value > max) {
                return fmt::format("'{}' is not {}", text, expected);
            }
            return {};
        },
        "NUMBER");
}

}  // namespace trainscope::harness
