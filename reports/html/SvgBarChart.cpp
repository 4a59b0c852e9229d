#include "reports/html/SvgBarChart.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "reports/html/HtmlText.hpp"

namespace trainscope::reports {

std::string render_svg_bar_chart(const BarChart& chart) {
    std::vector<std::string> series = chart.series_order;
    for (const auto& bar : chart.bars) {
        for (const auto& seg : bar.segments) {
            if (std::find(series.begin(), series.end(), seg.series) == series.end())
                series.push_back(seg.series);
        }
    }
    auto colour_of = [&](const std::string& name) {
        const auto it = std::find(series.begin(), series.end(), name);
        return chart_colour(static_cast<std::size_t>(it - series.begin()));
    };

    constexpr double kWidth = 860, kLeft = 300, kRight = 30, kTop = 40, kBarH = 22, kGap = 8;
    const double plot_w = kWidth - kLeft - kRight;
    const double plot_h = static_cast<double>(chart.bars.size()) * (kBarH + kGap) + kGap;
    const double legend_rows = static_cast<double>((series.size() + 3) / 4);
    const double height = kTop + plot_h + 50 + 20 * legend_rows;

    double max_total = 0.0;
    for (const auto& bar : chart.bars) {
        double total = 0.0;
        for (const auto& seg : bar.segments)
            total += std::max(seg.value, 0.0);
        max_total = std::max(max_total, total);
    }
    const auto ticks = nice_ticks(max_total);
    const double top_value = ticks.back();
    auto x_of = [&](double v) { return kLeft + plot_w * v / top_value; };

    std::string svg = fmt::format(
        "<svg class=\"chart\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\" "
        "aria-label=\"{2}\">\n<text x=\"10\" y=\"22\" class=\"title\">{2}</text>\n",
        svg_number(kWidth), svg_number(height), html_escape(chart.title));
    for (const double t : ticks) {
        svg += fmt::format(
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" class=\"grid\"/>"
            "<text x=\"{0}\" y=\"{3}\" class=\"tick\" text-anchor=\"middle\">{4}</text>\n",
            svg_number(x_of(t)), svg_number(kTop), svg_number(kTop + plot_h),
            svg_number(kTop + plot_h + 16), short_number(t));
    }
    svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"label\" text-anchor=\"middle\">{}</text>\n",
                       svg_number(kLeft + plot_w / 2), svg_number(kTop + plot_h + 34),
                       html_escape(chart.value_label));
    for (std::size_t i = 0; i < chart.bars.size(); ++i) {
        const auto& bar = chart.bars[i];
        const double y = kTop + kGap + static_cast<double>(i) * (kBarH + kGap);
        const std::string label = ellipsize(bar.label, 44);
        svg += fmt::format(
            "<text x=\"{}\" y=\"{}\" class=\"tick\" "
            "text-anchor=\"end\">{}<title>{}</title></text>\n",
            svg_number(kLeft - 8), svg_number(y + kBarH / 2 + 4), html_escape(label),
            html_escape(bar.label));
        double start = 0.0;
        for (const auto& seg : bar.segments) {
            const double v = std::max(seg.value, 0.0);
            if (v <= 0.0)
                continue;
            svg += fmt::format(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {} "
                "{}</title></rect>\n",
                svg_number(x_of(start)), svg_number(y), svg_number(x_of(start + v) - x_of(start)),
                svg_number(kBarH), colour_of(seg.series), html_escape(seg.series), short_number(v),
                html_escape(chart.value_label));
            start += v;
        }
    }
    svg += fmt::format("<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" class=\"axis\"/>\n",
                       svg_number(kLeft), svg_number(kTop), svg_number(kTop + plot_h));
    std::size_t shown = 0;  // legend entries: the series some bar has
    for (std::size_t s = 0; s < series.size(); ++s) {
        const bool present = std::any_of(chart.bars.begin(), chart.bars.end(), [&](const Bar& b) {
            return std::any_of(b.segments.begin(), b.segments.end(), [&](const BarSegment& g) {
                return g.series == series[s] && g.value > 0.0;
            });
        });
        if (!present)
            continue;
        const double lx = 10 + 210 * static_cast<double>(shown % 4);
        const double ly = kTop + plot_h + 52 + 20 * static_cast<double>(shown / 4);
        ++shown;
        svg += fmt::format(
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>"
            "<text x=\"{}\" y=\"{}\" class=\"legend\">{}</text>\n",
            svg_number(lx), svg_number(ly - 10), chart_colour(s), svg_number(lx + 18),
            svg_number(ly), html_escape(series[s]));
    }
    svg += "</svg>\n";
    return svg;
}

}  // namespace trainscope::reports
