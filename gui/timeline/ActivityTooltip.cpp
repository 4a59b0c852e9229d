#include "gui/timeline/ActivityTooltip.hpp"

#include <QObject>
#include <exception>

#include "gui/timeline/KernelCategory.hpp"
#include "gui/timeline/TimeFormat.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "profiler/trace/ActivityKind.hpp"

namespace trainscope::gui {

QString activityTooltip(const TimelineData& data, const TimelineViewState& state,
                        const DrawItem& item) {
    const TimelineRow& row = data.rows()[static_cast<std::size_t>(item.row)];
    // Times to the trace's own precision, from the chosen origin.
    const std::int64_t origin = TimelineRenderer::originNs(data, state);
    const std::int64_t res = data.resolutionNs();
    if (item.kind == DrawKind::Pending) {  // the row's events are still being read
        return QObject::tr(
                   "<b>%1 events</b><br>from %2, spanning %3<br>"
                   "<i>Loading their details…</i>")
            .arg(item.count)
            .arg(formatTimeExact(item.begin - origin, res),
                 formatTimeExact(item.end - item.begin, res));
    }
    if (item.kind == DrawKind::Fold) {
        return QObject::tr(
                   "<b>%1 events folded</b> (each narrower than %2 px)<br>from %3, spanning %4<br>"
                   "first: %5<br><i>Click to zoom in.</i>")
            .arg(item.count)
            .arg(TimelineRenderer::kMinPx)
            .arg(formatTimeExact(item.begin - origin, res),
                 formatTimeExact(item.end - item.begin, res),
                 data.label(row.events[item.first].name).toHtmlEscaped());
    }
    const std::uint32_t idx = row.events[item.first].activity;
    // The whole record is read (from the store, once the records live there) only now.
    profiler::Activity a;
    QString unread;
    try {
        a = data.details(idx);
    } catch (const std::exception& e) {  // the file went away or broke since the load
        const ActivityCore core = data.activity(idx);
        a.start_ns = core.start_ns;
        a.end_ns = core.end_ns;
        a.name = core.name;
        a.kind = core.kind;
        unread = QString::fromUtf8(e.what());
    }
    const Category c = data.category(idx);
    QString html = QStringLiteral("<b>%1</b><table>").arg(data.label(a.name).toHtmlEscaped());
    auto line = [&](const QString& key, const QString& value) {
        html += QStringLiteral("<tr><td>%1&nbsp;</td><td>%2</td></tr>").arg(key, value);
    };
    if (data.label(a.name) != data.name(a.name))
        line(QObject::tr("full name"), data.name(a.name).toHtmlEscaped());
    line(QObject::tr("kind"), QString::fromLatin1(profiler::to_string(a.kind).data())
                                  .append(QStringLiteral(" · "))
                                  .append(QString::fromLatin1(category_name(c).data())));
    line(state.origin_ns ? QObject::tr("start (from origin)") : QObject::tr("start"),
         formatTimeExact(a.start_ns - origin, res));
    line(QObject::tr("duration"), formatTimeExact(a.duration_ns(), res));
    line(QObject::tr("lane"), row.label.toHtmlEscaped());
    if (a.kind == profiler::ActivityKind::Kernel && unread.isEmpty()) {
        line(QObject::tr("grid"),
             QStringLiteral("(%1, %2, %3)").arg(a.grid[0]).arg(a.grid[1]).arg(a.grid[2]));
        line(QObject::tr("block"),
             QStringLiteral("(%1, %2, %3)").arg(a.block[0]).arg(a.block[1]).arg(a.block[2]));
        line(QObject::tr("registers/thread"), QString::number(a.registers_per_thread));
        line(QObject::tr("shared memory"), formatBytes(a.shared_memory_bytes));
    }
    if ((a.kind == profiler::ActivityKind::Memcpy || a.kind == profiler::ActivityKind::Memset) &&
        unread.isEmpty()) {
        line(QObject::tr("size"), formatBytes(static_cast<double>(a.bytes)));
        if (a.kind == profiler::ActivityKind::Memcpy)
            line(QObject::tr("direction"),
                 QString::fromLatin1(profiler::to_string(a.copy_kind).data()));
        if (a.duration_ns() > 0)
            line(QObject::tr("throughput"),
                 QStringLiteral("%1/s").arg(formatBytes(static_cast<double>(a.bytes) * 1e9 /
                                                        static_cast<double>(a.duration_ns()))));
    }
    if (a.correlation != 0)
        line(QObject::tr("correlation"), QString::number(a.correlation));
    // From the launch index, which only pairs activities that carry a correlation id.
    if (is_gpu_work(c)) {
        if (auto api = data.launchOf(idx)) {
            const auto& call = data.activity(*api);
            line(QObject::tr("launched by"),
                 QStringLiteral("%1 (%2)").arg(data.name(call.name).toHtmlEscaped(),
                                               formatTimeExact(call.duration_ns(), res)));
        }
    } else if (auto k = data.gpuWorkLaunchedBy(idx)) {
        line(QObject::tr("launches"), data.label(data.activity(*k).name).toHtmlEscaped());
    }
    if (!unread.isEmpty())
        line(QObject::tr("details"), QObject::tr("not read: %1").arg(unread.toHtmlEscaped()));
    html += QStringLiteral("</table>");
    return html;
}

}  // namespace trainscope::gui
