#include "reports/html/SvgLineChart.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "reports/html/HtmlText.hpp"

namespace trainscope::reports {

std::string render_svg_line_chart(const LineChart& chart) {
    constexpr double kWidth = 860, kHeight = 380;
    constexpr double kLeft = 80, kRight = 160, kTop = 40, kBottom = 60;
    const double plot_w = kWidth - kLeft - kRight;
    const double plot_h = kHeight - kTop - kBottom;

    double max_y = 0.0;
    for (const auto& s : chart.series) {
        for (const auto& p : s.points)
            max_y = std::max({max_y, p.y, p.high.value_or(0.0)});
    }
    const auto ticks = nice_ticks(max_y);
    const double top_value = ticks.back();
    const std::size_t n = std::max<std::size_t>(chart.x_categories.size(), 1);
    auto x_of = [&](const std::string& category) {
        const auto it = std::find(chart.x_categories.begin(), chart.x_categories.end(), category);
        const auto i = static_cast<double>(it - chart.x_categories.begin());
        return kLeft + plot_w * (i + 0.5) / static_cast<double>(n);
    };
    auto y_of = [&](double v) { return kTop + plot_h * (1.0 - v / top_value); };

    std::string svg = fmt::format(
        "<svg class=\"chart\" viewBox=\"0 0 {} {}\" "
        "width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\">\n",
        svg_number(kWidth), svg_number(kHeight), svg_number(kWidth), svg_number(kHeight),
        html_escape(chart.title));
    svg += fmt::format("<text x=\"{}\" y=\"22\" class=\"title\">{}</text>\n", svg_number(kLeft),
                       html_escape(chart.title));
    for (const double t : ticks) {
        const double y = y_of(t);
        svg += fmt::format(
            "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" class=\"grid\"/>"
            "<text x=\"{3}\" y=\"{4}\" class=\"tick\" text-anchor=\"end\">{5}</text>\n",
            svg_number(kLeft), svg_number(kLeft + plot_w), svg_number(y), svg_number(kLeft - 6),
            svg_number(y + 4), short_number(t));
    }
    for (const auto& c : chart.x_categories) {
        svg +=
            fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>\n",
                        svg_number(x_of(c)), svg_number(kTop + plot_h + 18), html_escape(c));
    }
    svg += fmt::format(
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" class=\"axis\"/>"
        "<line x1=\"{0}\" x2=\"{0}\" y1=\"{3}\" y2=\"{2}\" class=\"axis\"/>\n",
        svg_number(kLeft), svg_number(kLeft + plot_w), svg_number(kTop + plot_h), svg_number(kTop));
    svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"label\" text-anchor=\"middle\">{}</text>\n",
                       svg_number(kLeft + plot_w / 2), svg_number(kHeight - 12),
                       html_escape(chart.x_label));
    svg += fmt::format(
        "<text x=\"16\" y=\"{0}\" class=\"label\" text-anchor=\"middle\" "
        "transform=\"rotate(-90 16 {0})\">{1}</text>\n",
        svg_number(kTop + plot_h / 2), html_escape(chart.y_label));

    for (std::size_t si = 0; si < chart.series.size(); ++si) {
        const auto& s = chart.series[si];
        const auto colour = chart_colour(si);
        std::string points;
        for (const auto& p : s.points) {
            if (!points.empty())
                points += ' ';
            points += svg_number(x_of(p.x)) + "," + svg_number(y_of(p.y));
        }
        svg += fmt::format("<g class=\"series\"><title>{}</title>\n", html_escape(s.name));
        if (s.points.size() > 1) {
            svg += fmt::format(
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\"/>\n",
                points, colour);
        }
        for (const auto& p : s.points) {
            const double x = x_of(p.x);
            if (p.low && p.high) {
                svg += fmt::format(
                    "<path d=\"M{0} {1}V{2}M{3} {1}H{4}M{3} {2}H{4}\" stroke=\"{5}\" "
                    "stroke-width=\"1.5\" fill=\"none\" class=\"whisker\"/>\n",
                    svg_number(x), svg_number(y_of(*p.low)), svg_number(y_of(*p.high)),
                    svg_number(x - 5), svg_number(x + 5), colour);
            }
            svg += fmt::format(
                "<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"><title>{} @ {}: {}</title>"
                "</circle>\n",
                svg_number(x), svg_number(y_of(p.y)), colour, html_escape(s.name), html_escape(p.x),
                short_number(p.y));
        }
        svg += "</g>\n";
        const double ly = kTop + 10 + 20 * static_cast<double>(si);
        svg += fmt::format(
            "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"4\" fill=\"{}\"/>"
            "<text x=\"{}\" y=\"{}\" class=\"legend\">{}</text>\n",
            svg_number(kLeft + plot_w + 16), svg_number(ly - 4), colour,
            svg_number(kLeft + plot_w + 36), svg_number(ly + 1), html_escape(s.name));
    }
    svg += "</svg>\n";
    return svg;
}

}  // namespace trainscope::reports
