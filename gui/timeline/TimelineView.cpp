#include "gui/timeline/TimelineView.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <map>

#include "gui/timeline/TimeFormat.hpp"

namespace trainscope::gui {

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent), scroll_(new QScrollBar(Qt::Vertical, this)) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(400, 200);
    connect(scroll_, &QScrollBar::valueChanged, this, [this](int v) {
        state_.scroll_y = v;
        update();
    });
}

QSize TimelineView::paintSize() const {
    return QSize(std::max(width() - scroll_->sizeHint().width(), 1), height());
}

void TimelineView::setData(std::shared_ptr<const TimelineData> timeline) {
    data_ = std::move(timeline);
    state_.selected.reset();
    state_.flow_from.reset();
    state_.flow_to.reset();
    state_.range.reset();
    state_.scroll_y = 0;
    scroll_->setValue(0);
    collapsed_.assign(data_ ? data_->trace().lanes.size() : 0, false);
    relayout();
    setSearchText(search_);
    zoomToFit();
}

void TimelineView::relayout() {
    state_.row_tops.clear();
    state_.content_height = -1;
    if (data_ && std::find(collapsed_.begin(), collapsed_.end(), true) != collapsed_.end())
        TimelineRenderer::layoutRows(*data_, collapsed_, state_);
    updateScrollBar();
    update();
}

void TimelineView::setLaneCollapsed(profiler::LaneId lane, bool collapsed) {
    if (lane >= collapsed_.size() || collapsed_[lane] == collapsed)
        return;
    collapsed_[lane] = collapsed;
    relayout();
}

void TimelineView::collapseDeepLanes(int max_rows) {
    if (!data_)
        return;
    std::vector<int> rows_per_lane(collapsed_.size(), 0);
    for (const auto& row : data_->rows())
        ++rows_per_lane[row.lane];
    for (std::size_t lane = 0; lane < rows_per_lane.size(); ++lane) {
        if (rows_per_lane[lane] > max_rows &&
            data_->trace().lanes[lane].kind != profiler::LaneKind::GpuStream)
            collapsed_[lane] = true;
    }
    relayout();
}

void TimelineView::setDark(bool dark) {
    state_.dark = dark;
    update();
}

void TimelineView::setMapping(const TimeAxisMapping& mapping) {
    if (mapping == state_.mapping)
        return;
    setMappingInternal(mapping);
}

void TimelineView::setMappingInternal(const TimeAxisMapping& mapping) {
    fitted_ = false;
    state_.mapping = mapping.withWidth(TimelineRenderer::dataWidth(paintSize().width()));
    update();
    emit mappingChanged(state_.mapping);
}

void TimelineView::zoomToFit() {
    if (!data_)
        return;
    const auto span = static_cast<double>(data_->endNs() - data_->beginNs());
    const double margin = span * 0.01;
    setMappingInternal(TimeAxisMapping::fit(static_cast<double>(data_->beginNs()) - margin,
                                            static_cast<double>(data_->endNs()) + margin,
                                            TimelineRenderer::dataWidth(paintSize().width())));
    fitted_ = true;
}

void TimelineView::zoomToFraction(double fraction) {
    if (!data_)
        return;
    const auto span = static_cast<double>(data_->endNs() - data_->beginNs());
    const double mid = static_cast<double>(data_->beginNs()) + span / 2;
    setMappingInternal(TimeAxisMapping::fit(mid - span * fraction / 2, mid + span * fraction / 2,
                                            TimelineRenderer::dataWidth(paintSize().width())));
}

double TimelineView::anchorX() const {
    const QPoint p = mapFromGlobal(QCursor::pos());
    if (rect().contains(p) && p.x() >= TimelineRenderer::kLabelWidth)
        return p.x() - TimelineRenderer::kLabelWidth;
    return state_.mapping.width() / 2.0;
}

void TimelineView::zoomBy(double factor) {
    setMappingInternal(state_.mapping.zoomed(factor, anchorX()));
}

void TimelineView::panBy(double fraction) {
    setMappingInternal(state_.mapping.panned(fraction * state_.mapping.width()));
}

void TimelineView::zoomToActivity(std::uint32_t activity) {
    if (!data_ || activity >= data_->trace().activities.size())
        return;
    const auto& a = data_->activity(activity);
    const double d = std::max(static_cast<double>(a.duration_ns()), 100.0);
    setMappingInternal(TimeAxisMapping::fit(static_cast<double>(a.start_ns) - 4 * d,
                                            static_cast<double>(a.end_ns) + 4 * d,
                                            state_.mapping.width()));
    const int row = data_->rowOf(activity);
    if (row >= 0) {
        const auto lane = data_->rows()[static_cast<std::size_t>(row)].lane;
        if (lane < collapsed_.size() && collapsed_[lane])
            setLaneCollapsed(lane, false);  // show what was asked for
        const int top = TimelineRenderer::contentTop(*data_, state_, static_cast<std::size_t>(row));
        const int view_h = TimelineRenderer::viewportHeight(height());
        if (top < state_.scroll_y || top + TimelineData::kRowHeight > state_.scroll_y + view_h)
            scroll_->setValue(std::max(0, top - view_h / 3));
    }
    select(activity);
}

void TimelineView::select(std::uint32_t activity) {
    state_.selected = activity;
    state_.flow_from.reset();
    state_.flow_to.reset();
    const auto& a = data_->activity(activity);
    const Category c = data_->category(activity);
    if (c == Category::RuntimeApi) {
        if (auto k = data_->gpuWorkFor(a.correlation)) {
            state_.flow_from = activity;
            state_.flow_to = *k;
        }
    } else if (is_gpu_work(c)) {
        if (auto api = data_->apiCallFor(a.correlation)) {
            state_.flow_from = *api;
            state_.flow_to = activity;
        }
    }
    update();
    emit activitySelected(activity);
    emit statusMessage(QStringLiteral("%1 · %2").arg(
        data_->name(a.name), formatDuration(static_cast<double>(a.duration_ns()))));
}

void TimelineView::clearSelection() {
    state_.selected.reset();
    state_.flow_from.reset();
    state_.flow_to.reset();
    state_.range.reset();
    update();
}

void TimelineView::setSearchText(const QString& text) {
    search_ = text;
    state_.name_matches.clear();
    if (data_ && !text.isEmpty()) {
        state_.name_matches.resize(data_->nameCount());
        for (std::size_t i = 1; i < data_->nameCount(); ++i)
            state_.name_matches[i] =
                data_->name(static_cast<std::uint32_t>(i)).contains(text, Qt::CaseInsensitive);
    }
    update();
}

void TimelineView::findNext() {
    find(true);
}
void TimelineView::findPrevious() {
    find(false);
}

void TimelineView::find(bool forward) {
    if (!data_ || state_.name_matches.empty())
        return;
    const auto& order = data_->gpuWorkByStart();
    if (order.empty())
        return;
    // Start from the selected activity, else from the left edge of the view.
    const double from = state_.selected
                            ? static_cast<double>(data_->activity(*state_.selected).start_ns)
                            : state_.mapping.startNs();
    auto start_less = [&](std::uint32_t idx, double t) {
        return static_cast<double>(data_->activity(idx).start_ns) < t;
    };
    auto pos = static_cast<std::size_t>(
        std::lower_bound(order.begin(), order.end(), from, start_less) - order.begin());
    const std::size_t n = order.size();
    std::size_t i = pos;
    if (forward && state_.selected && i < n && order[i] == *state_.selected)
        ++i;
    for (std::size_t step = 0; step < n; ++step) {
        std::size_t k = 0;
        if (forward)
            k = (i + step) % n;
        else
            k = (pos + n - 1 - step % n) % n;
        const std::uint32_t idx = order[k];
        const auto name = data_->activity(idx).name;
        if (name < state_.name_matches.size() && state_.name_matches[name] &&
            (!state_.selected || idx != *state_.selected)) {
            zoomToActivity(idx);
            return;
        }
    }
    emit statusMessage(tr("No kernel matches \"%1\"").arg(search_));
}

QImage TimelineView::renderImage(QSize size) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    if (!data_) {
        image.fill(Qt::black);
        return image;
    }
    TimelineViewState s = state_;
    s.mapping = s.mapping.withWidth(TimelineRenderer::dataWidth(size.width()));
    QPainter p(&image);
    p.setFont(font());
    std::vector<DrawItem> list;
    TimelineRenderer::paint(p, *data_, s, size, list);
    return image;
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (!data_) {
        p.fillRect(rect(), palette().window());
        p.setPen(palette().text().color());
        p.drawText(rect(), Qt::AlignCenter, tr("Select a run with a trace in the Runs view."));
        return;
    }
    const QSize size = paintSize();
    TimelineRenderer::paint(p, *data_, state_, size, draw_list_);
    // The scroll bar's column above and below the bar.
    const QColor ruler = TimelineTheme::make(state_.dark).ruler;
    p.fillRect(QRect(size.width(), 0, width() - size.width(), TimelineRenderer::kRulerHeight),
               ruler);
    p.fillRect(QRect(size.width(), height() - TimelineRenderer::kLegendHeight,
                     width() - size.width(), TimelineRenderer::kLegendHeight),
               ruler);
}

void TimelineView::updateScrollBar() {
    const int view_h = TimelineRenderer::viewportHeight(height());
    const int content = data_ ? TimelineRenderer::contentHeight(*data_, state_) : 0;
    scroll_->setRange(0, std::max(0, content - view_h));
    scroll_->setPageStep(view_h);
    scroll_->setSingleStep(TimelineData::kRowHeight);
}

void TimelineView::resizeEvent(QResizeEvent*) {
    const int sw = scroll_->sizeHint().width();
    scroll_->setGeometry(width() - sw, TimelineRenderer::kRulerHeight, sw,
                         TimelineRenderer::viewportHeight(height()));
    updateScrollBar();
    if (data_ && state_.mapping.isValid() && !fitted_)
        setMappingInternal(state_.mapping);
    else if (data_)
        zoomToFit();
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    if (!data_)
        return;
    const double steps = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ShiftModifier) {
        scroll_->setValue(scroll_->value() -
                          static_cast<int>(steps * 3 * TimelineData::kRowHeight));
    } else {
        const double x = event->position().x() - TimelineRenderer::kLabelWidth;
        setMappingInternal(state_.mapping.zoomed(std::pow(0.8, steps), std::max(x, 0.0)));
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (!data_ || event->button() != Qt::LeftButton)
        return;
    // A click on a lane's label toggles its nested rows.
    if (event->position().x() < TimelineRenderer::kLabelWidth) {
        const int r =
            TimelineRenderer::rowAt(*data_, state_, static_cast<int>(event->position().y()));
        if (r >= 0) {
            const auto& rows = data_->rows();
            const auto idx = static_cast<std::size_t>(r);
            const bool nested = idx + 1 < rows.size() && rows[idx + 1].lane == rows[idx].lane;
            if (rows[idx].first_of_lane && nested)
                setLaneCollapsed(rows[idx].lane, !collapsed_[rows[idx].lane]);
        }
        return;
    }
    press_pos_ = last_pos_ = event->position().toPoint();
    moved_ = false;
    if (event->modifiers() & Qt::ShiftModifier) {
        drag_ = Drag::Range;
        range_anchor_ns_ =
            state_.mapping.mapXToTime(press_pos_.x() - TimelineRenderer::kLabelWidth);
        state_.range = std::make_pair(range_anchor_ns_, range_anchor_ns_);
    } else {
        drag_ = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (drag_ == Drag::None)
        return;
    if ((pos - press_pos_).manhattanLength() > 3)
        moved_ = true;
    if (drag_ == Drag::Pan) {
        const QPoint d = pos - last_pos_;
        scroll_->setValue(scroll_->value() - d.y());
        setMappingInternal(state_.mapping.panned(-d.x()));
    } else {
        const double t = state_.mapping.mapXToTime(pos.x() - TimelineRenderer::kLabelWidth);
        state_.range = std::make_pair(std::min(range_anchor_ns_, t), std::max(range_anchor_ns_, t));
        update();
    }
    last_pos_ = pos;
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    const Drag was = drag_;
    drag_ = Drag::None;
    unsetCursor();
    if (!data_ || event->button() != Qt::LeftButton)
        return;
    if (was == Drag::Range) {
        if (moved_ && state_.range) {
            emit rangeSelected(state_.range->first, state_.range->second);
            emit statusMessage(rangeSummary(state_.range->first, state_.range->second));
        } else {
            state_.range.reset();
        }
        update();
        return;
    }
    if (moved_)
        return;
    const DrawItem* item =
        TimelineRenderer::hitTest(draw_list_, *data_, state_, event->position().toPoint());
    if (!item)
        return;
    const TimelineRow& row = data_->rows()[static_cast<std::size_t>(item->row)];
    if (item->kind == DrawKind::Fold) {
        const auto span = static_cast<double>(item->end - item->begin);
        setMappingInternal(TimeAxisMapping::fit(static_cast<double>(item->begin) - span * 0.05,
                                                static_cast<double>(item->end) + span * 0.05,
                                                state_.mapping.width()));
        return;
    }
    select(row.events[item->first].activity);
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
        case Qt::Key_W:
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            zoomBy(0.7);
            break;
        case Qt::Key_S:
        case Qt::Key_Minus:
            zoomBy(1.0 / 0.7);
            break;
        case Qt::Key_A:
        case Qt::Key_Left:
            panBy(-0.1);
            break;
        case Qt::Key_D:
        case Qt::Key_Right:
            panBy(0.1);
            break;
        case Qt::Key_Home:
            zoomToFit();
            break;
        case Qt::Key_Up:
            scroll_->setValue(scroll_->value() - TimelineData::kRowHeight);
            break;
        case Qt::Key_Down:
            scroll_->setValue(scroll_->value() + TimelineData::kRowHeight);
            break;
        case Qt::Key_PageUp:
            scroll_->setValue(scroll_->value() - scroll_->pageStep());
            break;
        case Qt::Key_PageDown:
            scroll_->setValue(scroll_->value() + scroll_->pageStep());
            break;
        case Qt::Key_Escape:
            clearSelection();
            break;
        default:
            QWidget::keyPressEvent(event);
            return;
    }
    event->accept();
}

bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && data_) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const DrawItem* item =
                TimelineRenderer::hitTest(draw_list_, *data_, state_, help->pos()))
            QToolTip::showText(help->globalPos(), describe(*item), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

QString TimelineView::describe(const DrawItem& item) const {
    const TimelineRow& row = data_->rows()[static_cast<std::size_t>(item.row)];
    const double base = static_cast<double>(data_->beginNs());
    if (item.kind == DrawKind::Fold) {
        return tr("<b>%1 events folded</b> (each narrower than %2 px)<br>from %3, spanning %4<br>"
                  "first: %5<br><i>Click to zoom in.</i>")
            .arg(item.count)
            .arg(TimelineRenderer::kMinPx)
            .arg(formatDuration(static_cast<double>(item.begin) - base),
                 formatDuration(static_cast<double>(item.end - item.begin)),
                 data_->name(row.events[item.first].name).toHtmlEscaped());
    }
    const std::uint32_t idx = row.events[item.first].activity;
    const auto& a = data_->activity(idx);
    const Category c = data_->category(idx);
    QString html = QStringLiteral("<b>%1</b><table>").arg(data_->name(a.name).toHtmlEscaped());
    auto line = [&](const QString& key, const QString& value) {
        html += QStringLiteral("<tr><td>%1&nbsp;</td><td>%2</td></tr>").arg(key, value);
    };
    line(tr("kind"), QString::fromLatin1(profiler::to_string(a.kind).data())
                         .append(QStringLiteral(" · "))
                         .append(QString::fromLatin1(category_name(c).data())));
    line(tr("start"), formatDuration(static_cast<double>(a.start_ns) - base));
    line(tr("duration"), formatDuration(static_cast<double>(a.duration_ns())));
    line(tr("lane"), row.label.toHtmlEscaped());
    if (a.kind == profiler::ActivityKind::Kernel) {
        line(tr("grid"),
             QStringLiteral("(%1, %2, %3)").arg(a.grid[0]).arg(a.grid[1]).arg(a.grid[2]));
        line(tr("block"),
             QStringLiteral("(%1, %2, %3)").arg(a.block[0]).arg(a.block[1]).arg(a.block[2]));
        line(tr("registers/thread"), QString::number(a.registers_per_thread));
        line(tr("shared memory"), formatBytes(a.shared_memory_bytes));
    }
    if (a.kind == profiler::ActivityKind::Memcpy || a.kind == profiler::ActivityKind::Memset) {
        line(tr("size"), formatBytes(static_cast<double>(a.bytes)));
        if (a.kind == profiler::ActivityKind::Memcpy)
            line(tr("direction"), QString::fromLatin1(profiler::to_string(a.copy_kind).data()));
        if (a.duration_ns() > 0)
            line(tr("throughput"),
                 QStringLiteral("%1/s").arg(formatBytes(static_cast<double>(a.bytes) * 1e9 /
                                                        static_cast<double>(a.duration_ns()))));
    }
    if (a.correlation != 0) {
        line(tr("correlation"), QString::number(a.correlation));
        if (is_gpu_work(c)) {
            if (auto api = data_->apiCallFor(a.correlation)) {
                const auto& call = data_->activity(*api);
                line(tr("launched by"),
                     QStringLiteral("%1 (%2)").arg(
                         data_->name(call.name).toHtmlEscaped(),
                         formatDuration(static_cast<double>(call.duration_ns()))));
            }
        } else if (auto k = data_->gpuWorkFor(a.correlation)) {
            line(tr("launches"), data_->name(data_->activity(*k).name).toHtmlEscaped());
        }
    }
    html += QStringLiteral("</table>");
    return html;
}

QString TimelineView::rangeSummary(double t0, double t1) const {
    if (!data_)
        return {};
    const auto& order = data_->gpuWorkByStart();
    auto start_less = [&](std::uint32_t idx, double t) {
        return static_cast<double>(data_->activity(idx).start_ns) < t;
    };
    auto b = std::lower_bound(order.begin(), order.end(), t0, start_less);
    auto e = std::lower_bound(b, order.end(), t1, start_less);
    std::map<std::uint32_t, std::int64_t> by_name;
    std::int64_t total = 0;
    for (auto it = b; it != e; ++it) {
        const auto& a = data_->activity(*it);
        by_name[a.name] += a.duration_ns();
        total += a.duration_ns();
    }
    std::vector<std::pair<std::int64_t, std::uint32_t>> top;
    for (const auto& [name, ns] : by_name)
        top.emplace_back(ns, name);
    std::sort(top.rbegin(), top.rend());
    QString text = tr("Range %1: %2 GPU activities, %3 of GPU time")
                       .arg(formatDuration(t1 - t0))
                       .arg(e - b)
                       .arg(formatDuration(static_cast<double>(total)));
    for (std::size_t i = 0; i < std::min<std::size_t>(3, top.size()); ++i)
        text += QStringLiteral(" · %1 %2")
                    .arg(data_->name(top[i].second).left(40),
                         formatDuration(static_cast<double>(top[i].first)));
    return text;
}

}  // namespace trainscope::gui
