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
    // Okabe-Ito, then two greys: nine, one per kernel category, so that no two categories
    // of one chart share a colour.
    static constexpr std::array<std::string_view, 9> kPalette{"#0072B2", "#E69F00", "#009E73",
                                                              "#CC79A7", "#56B4E9", "#D55E00",
                                                              "#F0E442", "#555555", "#999999"};
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
    if (magnitude >= 1e3)
        return fmt::format("{:.0f}", value);
    if (magnitude > 0 && magnitude < 1e-3)
        return fmt::format("{:.1e}", value);
    return fmt::format("{:.3g}", value);
}

std::string ellipsize(std::string_view text, std::size_t max_chars) {
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80)
            continue;  // continuation byte
        if (chars == max_chars - std::min<std::size_t>(max_chars, 3)) {
            // Is the rest longer than three more code points?
            std::size_t rest = 0;
            for (std::size_t j = i; j < text.size(); ++j)
                rest += (static_cast<unsigned char>(text[j]) & 0xC0) != 0x80 ? 1 : 0;
            if (rest > 3)
                return std::string(text.substr(0, i)) + "...";
            return std::string(text);
        }
        ++chars;
    }
    return std::string(text);
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
