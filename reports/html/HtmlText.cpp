#include "reports/html/HtmlText.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace trainscope::reports {

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string_view chart_colour(std::size_t index) {
    // Okabe-Ito, then two greys.
    static constexpr std::array<std::string_view, 8> kPalette{
        "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#555555"};
    return kPalette[index % kPalette.size()];
}

std::string svg_number(double value) {
    if (!std::isfinite(value))
        return "0";
    std::string text = fmt::format("{:.2f}", value);
    while (text.back() == '0')
        text.pop_back();
    if (text.back() == '.')
        text.pop_back();
    if (text == "-0")
        text = "0";
    return text;
}

std::string short_number(double value) {
    if (!std::isfinite(value))
        return "n/a";
    const double magnitude = std::fabs(value);
    if (magnitude >= 1e9)
        return fmt::format("{:.3g}G", value / 1e9);
    if (magnitude >= 1e6)
        return fmt::format("{:.3g}M", value / 1e6);
    if (magnitude >= 1e4)
        return fmt::format("{:.3g}k", value / 1e3);
    return fmt::format("{:.3g}", value);
}

std::vector<double> nice_ticks(double max_value, int count) {
    if (!std::isfinite(max_value) || max_value <= 0.0)
        return {0.0, 1.0};
    const double raw = max_value / std::max(count, 1);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    double step = power;
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * power;
        if (step >= raw)
            break;
    }
    std::vector<double> ticks;
    for (int i = 0;; ++i) {
        const double t = step * i;
        ticks.push_back(t);
        if (t >= max_value * (1.0 - 1e-12))
            break;
    }
    return ticks;
}

}  // namespace trainscope::reports
