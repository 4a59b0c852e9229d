#include "gui/utilization/MemoryLane.hpp"

#include <QFontMetrics>
#include <QObject>
#include <algorithm>
#include <cmath>
#include <vector>

#include "gui/timeline/TimeFormat.hpp"

namespace trainscope::gui {

QColor MemoryLane::classColor(const QString& tensor_class) {
    if (tensor_class == QLatin1String("weights"))
        return QColor(0x3d, 0x7e, 0xdb);
    if (tensor_class == QLatin1String("gradients"))
        return QColor(0xf0, 0x8c, 0x28);
    if (tensor_class == QLatin1String("optimizer_state"))
        return QColor(0x8e, 0x5c, 0xd6);
    if (tensor_class == QLatin1String("activations"))
        return QColor(0x76, 0xb9, 0x00);
    if (tensor_class == QLatin1String("workspace"))
        return QColor(0xe0, 0x4a, 0x4a);
    if (tensor_class == QLatin1String("input_batch"))
        return QColor(0x2a, 0xb3, 0xb0);
    return QColor(0x90, 0x90, 0x90);
}

std::ptrdiff_t MemoryLane::bucketState(const reports::MemoryStack& stack, double t0, double t1) {
    const auto& t = stack.t_ns;
    const auto before = [](std::int64_t sample, double tv) {
        return static_cast<double>(sample) < tv;
    };
    // The state in effect when the bucket opens, then every change inside it.
    auto first = std::lower_bound(t.begin(), t.end(), t0, before);
    const auto last = std::lower_bound(first, t.end(), t1, before);
    std::ptrdiff_t best = -1;
    double best_total = -1.0;
    if (first != t.begin() && (first == t.end() || static_cast<double>(*first) > t0)) {
        best = std::distance(t.begin(), first) - 1;
        best_total = stack.total_at(static_cast<std::size_t>(best));
    }
    for (auto it = first; it != last; ++it) {
        const auto i = std::distance(t.begin(), it);
        const double total = stack.total_at(static_cast<std::size_t>(i));
        if (total > best_total) {
            best_total = total;
            best = i;
        }
    }
    return best;
}

void MemoryLane::paint(QPainter& p, const Theme& theme, const reports::MemoryStack& stack,
                       const TimeAxisMapping& m, const QRect& area, const QRect& label,
                       const QString& title) {
    const double max = stack.peak_total > 0 ? stack.peak_total * 1.1 : 1.0;
    // Legend: one swatch per class, as many as fit beside the title.
    const QFontMetrics fm = p.fontMetrics();
    p.setPen(theme.text);
    p.drawText(QRect(label.left() + 10, label.top(), label.width() - 20, fm.height()),
               Qt::AlignLeft | Qt::AlignTop, title);
    int y = label.top() + fm.height() + 1;
    for (auto c = stack.classes.rbegin(); c != stack.classes.rend(); ++c) {
        if (y + fm.height() > label.bottom())
            break;
        const QString name = QString::fromStdString(*c);
        p.fillRect(QRect(label.left() + 12, y + 3, 8, fm.height() - 6), classColor(name));
        p.setPen(theme.dim_text);
        p.drawText(QRect(label.left() + 24, y, label.width() - 90, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, name);
        y += fm.height();
    }
    // Scale: the peak, on the right of the label column as the other tracks' ticks.
    p.setPen(theme.dim_text);
    const QString top_label = formatBytes(max);
    p.drawText(QRect(area.left() - 8 - fm.horizontalAdvance(top_label), area.top() - 4,
                     fm.horizontalAdvance(top_label) + 2, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, top_label);
    p.setPen(theme.grid);
    p.drawLine(area.left(), area.top(), area.right(), area.top());

    std::vector<QColor> colors;
    for (const std::string& c : stack.classes)
        colors.push_back(classColor(QString::fromStdString(c)));
    p.save();
    p.setClipRect(area);
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int x = 0; x < m.width(); x += kBucketPx) {
        const std::ptrdiff_t i = bucketState(stack, m.mapXToTime(x), m.mapXToTime(x + kBucketPx));
        if (i < 0)
            continue;
        double below = 0.0;
        for (std::size_t c = 0; c < stack.classes.size(); ++c) {
            const double bytes = stack.bytes[c][static_cast<std::size_t>(i)];
            if (bytes <= 0)
                continue;
            const auto y0 =
                static_cast<int>(std::lround(area.bottom() - below / max * area.height()));
            below += bytes;
            const auto y1 =
                static_cast<int>(std::lround(area.bottom() - below / max * area.height()));
            p.fillRect(QRect(area.left() + x, y1, kBucketPx, std::max(1, y0 - y1)), colors[c]);
        }
    }
    p.restore();
}

}  // namespace trainscope::gui
