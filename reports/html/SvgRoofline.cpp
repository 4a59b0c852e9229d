#include "reports/html/SvgRoofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "reports/html/HtmlText.hpp"
#include "reports/roofline/RooflineExtent.hpp"

namespace trainscope::reports {

std::string render_svg_roofline(const std::string& title, const std::vector<OpRooflineRow>& ops,
                                const Roofs& roofs) {
    std::vector<const OpRooflineRow*> points;
    std::vector<std::string> categories;
    double total_ns = 0.0;
    for (const OpRooflineRow& op : ops) {
        if (!on_roofline_chart(op))
            continue;
        points.push_back(&op);
        total_ns += static_cast<double>(op.device_ns);
        if (std::find(categories.begin(), categories.end(), op.category) == categories.end())
            categories.push_back(op.category);
    }
    if (points.empty())
        return {};
    // Plain variables, not structured bindings: the lambdas below capture them, which
    // clang-14 (CI's sanitizer compiler) does not allow for bindings.
    const RooflineExtent extent = roofline_extent(ops, roofs);
    const int x_lo = extent.x_lo, x_hi = extent.x_hi;
    const int y_lo = extent.y_lo, y_hi = extent.y_hi;

    constexpr double kWidth = 860, kHeight = 460, kLeft = 90, kRight = 200, kTop = 40, kBottom = 60;
    const double plot_w = kWidth - kLeft - kRight;
    const double plot_h = kHeight - kTop - kBottom;
    const auto x_of = [&](double v) {
        return kLeft + plot_w * (std::log10(v) - x_lo) / static_cast<double>(x_hi - x_lo);
    };
    const auto y_of = [&](double v) {
        return kTop + plot_h * (1.0 - (std::log10(v) - y_lo) / static_cast<double>(y_hi - y_lo));
    };

    std::string svg = fmt::format(
        "<svg class=\"chart\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\" "
        "aria-label=\"{2}\">\n<text x=\"10\" y=\"22\" class=\"title\">{2}</text>\n",
        svg_number(kWidth), svg_number(kHeight), html_escape(title));
    for (int d = x_lo; d <= x_hi; ++d) {
        const double x = x_of(std::pow(10.0, d));
        svg += fmt::format(
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" class=\"grid\"/><text x=\"{0}\" "
            "y=\"{3}\" class=\"tick\" text-anchor=\"middle\">{4}</text>\n",
            svg_number(x), svg_number(kTop), svg_number(kTop + plot_h),
            svg_number(kTop + plot_h + 16), short_number(std::pow(10.0, d)));
    }
    for (int d = y_lo; d <= y_hi; ++d) {
        const double y = y_of(std::pow(10.0, d));
        svg += fmt::format(
            "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" class=\"grid\"/><text x=\"{3}\" "
            "y=\"{4}\" class=\"tick\" text-anchor=\"end\">{5}</text>\n",
            svg_number(kLeft), svg_number(kLeft + plot_w), svg_number(y), svg_number(kLeft - 6),
            svg_number(y + 4), short_number(std::pow(10.0, d)));
    }
    svg += fmt::format(
        "<text x=\"{}\" y=\"{}\" class=\"label\" text-anchor=\"middle\">arithmetic intensity "
        "(FLOP/byte)</text>\n<text x=\"16\" y=\"{}\" class=\"label\" transform=\"rotate(-90 16 "
        "{})\" text-anchor=\"middle\">achieved FLOP/s</text>\n",
        svg_number(kLeft + plot_w / 2), svg_number(kTop + plot_h + 38),
        svg_number(kTop + plot_h / 2), svg_number(kTop + plot_h / 2));
    if (roofs.known()) {
        const double x_min = std::pow(10.0, x_lo);
        const double x_max = std::pow(10.0, x_hi);
        const double ridge = roofs.ridge_intensity();
        svg += fmt::format(
            "<polyline class=\"roof\" fill=\"none\" stroke=\"#333\" stroke-width=\"2\" "
            "points=\"{},{} {},{} {},{}\"><title>memory roof {} GB/s, compute roof {} "
            "TFLOP/s, ridge {} FLOP/byte</title></polyline>\n",
            svg_number(x_of(x_min)), svg_number(y_of(roofs.attainable_flops_per_s(x_min))),
            svg_number(x_of(ridge)), svg_number(y_of(roofs.peak_flops_per_s)),
            svg_number(x_of(x_max)), svg_number(y_of(roofs.peak_flops_per_s)),
            short_number(roofs.peak_bytes_per_s * 1e-9),
            short_number(roofs.peak_flops_per_s * 1e-12), short_number(ridge));
    }
    for (const OpRooflineRow* op : points) {
        const auto colour = static_cast<std::size_t>(
            std::find(categories.begin(), categories.end(), op->category) - categories.begin());
        const double share = total_ns > 0.0 ? static_cast<double>(op->device_ns) / total_ns : 0.0;
        svg += fmt::format(
            "<circle class=\"op\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" fill-opacity=\"0.75\">"
            "<title>{} ({}): {} FLOP/byte, {} GFLOP/s, {} GB/s, {} % of device time, {}-bound"
            "</title></circle>\n",
            svg_number(x_of(op->intensity)), svg_number(y_of(op->achieved_flops_per_s)),
            svg_number(3.0 + 20.0 * std::sqrt(share)), chart_colour(colour), html_escape(op->name),
            html_escape(op->category), short_number(op->intensity),
            short_number(op->achieved_flops_per_s * 1e-9),
            short_number(op->achieved_bytes_per_s * 1e-9), short_number(100.0 * share),
            to_string(op->bound));
    }
    for (std::size_t c = 0; c < categories.size(); ++c) {
        const double ly = kTop + 14 + 20 * static_cast<double>(c);
        svg += fmt::format(
            "<circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" "
            "class=\"legend\">{}</text>\n",
            svg_number(kLeft + plot_w + 24), svg_number(ly - 4), chart_colour(c),
            svg_number(kLeft + plot_w + 36), svg_number(ly), html_escape(categories[c]));
    }
    svg += "</svg>\n";
    return svg;
}

}  // namespace trainscope::reports
