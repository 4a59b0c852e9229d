#include "reports/html/SvgBoxPlot.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "reports/html/HtmlText.hpp"
#include "reports/stats/SampleStatistics.hpp"

namespace trainscope::reports {

BoxStats box_stats(std::string label, std::vector<double> values) {
    BoxStats b;
    b.label = std::move(label);
    b.count = values.size();
    if (values.empty())
        return b;
    // The statistics' own quantile, so the box's median and p5/p95 are the run's
    // step_ms_median/p5/p95 (summarize) to the last digit.
    std::sort(values.begin(), values.end());
    b.p5 = quantile_sorted(values, 0.05);
    b.p25 = quantile_sorted(values, 0.25);
    b.median = quantile_sorted(values, 0.5);
    b.p75 = quantile_sorted(values, 0.75);
    b.p95 = quantile_sorted(values, 0.95);
    return b;
}

std::string render_svg_box_plot(const std::string& title, const std::string& value_label,
                                const std::vector<BoxStats>& boxes) {
    constexpr double kWidth = 860, kLeft = 300, kRight = 30, kTop = 40, kRowH = 26;
    const double plot_w = kWidth - kLeft - kRight;
    const double plot_h = static_cast<double>(boxes.size()) * kRowH + 8;
    const double height = kTop + plot_h + 50;
    double max_v = 0.0;
    for (const auto& b : boxes)
        max_v = std::max(max_v, b.p95);
    const auto ticks = nice_ticks(max_v);
    const double top_value = ticks.back();
    auto x_of = [&](double v) { return kLeft + plot_w * v / top_value; };

    std::string svg = fmt::format(
        "<svg class=\"chart\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\" "
        "aria-label=\"{2}\">\n<text x=\"10\" y=\"22\" class=\"title\">{2}</text>\n",
        svg_number(kWidth), svg_number(height), html_escape(title));
    for (const double t : ticks) {
        svg += fmt::format(
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" class=\"grid\"/>"
            "<text x=\"{0}\" y=\"{3}\" class=\"tick\" text-anchor=\"middle\">{4}</text>\n",
            svg_number(x_of(t)), svg_number(kTop), svg_number(kTop + plot_h),
            svg_number(kTop + plot_h + 16), short_number(t));
    }
    svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"label\" text-anchor=\"middle\">{}</text>\n",
                       svg_number(kLeft + plot_w / 2), svg_number(kTop + plot_h + 34),
                       html_escape(value_label));
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const auto& b = boxes[i];
        const double y = kTop + 8 + static_cast<double>(i) * kRowH;
        const double mid = y + (kRowH - 8) / 2;
        const auto colour = chart_colour(i);
        svg += fmt::format(
            "<text x=\"{}\" y=\"{}\" class=\"tick\" "
            "text-anchor=\"end\">{}<title>{}</title></text>\n",
            svg_number(kLeft - 8), svg_number(mid + 4), html_escape(ellipsize(b.label, 44)),
            html_escape(b.label));
        if (b.count == 0)
            continue;
        svg += fmt::format(
            "<g class=\"box\"><title>{0}: n={1}, p5 {2}, p25 {3}, median {4}, p75 {5}, p95 {6} "
            "{7}</title>\n",
            html_escape(b.label), b.count, short_number(b.p5), short_number(b.p25),
            short_number(b.median), short_number(b.p75), short_number(b.p95),
            html_escape(value_label));
        svg += fmt::format(
            "<path d=\"M{0} {1}H{2}M{3} {1}H{4}M{0} {5}V{6}M{4} {5}V{6}\" stroke=\"#333\" "
            "fill=\"none\"/>\n",
            svg_number(x_of(b.p5)), svg_number(mid), svg_number(x_of(b.p25)),
            svg_number(x_of(b.p75)), svg_number(x_of(b.p95)), svg_number(mid - 5),
            svg_number(mid + 5));
        svg += fmt::format(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" fill-opacity=\"0.6\" "
            "stroke=\"#333\"/>\n",
            svg_number(x_of(b.p25)), svg_number(y),
            svg_number(std::max(x_of(b.p75) - x_of(b.p25), 1.0)), svg_number(kRowH - 8), colour);
        svg += fmt::format(
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#000\" "
            "stroke-width=\"2\"/></g>\n",
            svg_number(x_of(b.median)), svg_number(y), svg_number(y + kRowH - 8));
    }
    svg += "</svg>\n";
    return svg;
}

}  // namespace trainscope::reports
