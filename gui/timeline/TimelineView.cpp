#include "gui/timeline/TimelineView.hpp"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "gui/timeline/ActivityTooltip.hpp"
#include "gui/timeline/RankSummaryHit.hpp"
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
        hideToolTip();
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
    const bool had_range = state_.range.has_value();
    state_.range.reset();
    state_.origin_ns.reset();
    state_.scroll_y = 0;
    scroll_->setValue(0);
    collapsed_.assign(data_ ? data_->trace().lanes.size() : 0, false);
    resetRankGroups();
    relayout();
    setSearchText(search_);
    zoomToFit();
    if (had_range)
        emit rangeCleared();
}

void TimelineView::relayout() {
    state_.row_tops.clear();
    state_.content_height = -1;
    state_.pinned_rows = 0;
    state_.pinned_height = 0;
    if (data_)
        layOutLanes();
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
    hideToolTip();
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
    if (!data_ || activity >= data_->activityCount())
        return;
    const auto& a = data_->activity(activity);
    const double d = std::max(static_cast<double>(a.duration_ns()), 100.0);
    setMappingInternal(TimeAxisMapping::fit(static_cast<double>(a.start_ns) - 4 * d,
                                            static_cast<double>(a.end_ns) + 4 * d,
                                            state_.mapping.width()));
    ensureRowVisible(data_->rowOf(activity));
    select(activity);
}

void TimelineView::ensureRowVisible(int row) {
    if (row < 0)
        return;
    const auto lane = data_->rows()[static_cast<std::size_t>(row)].lane;
    if (lane < collapsed_.size() && collapsed_[lane])
        setLaneCollapsed(lane, false);  // show what was asked for
    setRankCollapsed(rank_groups_.rankOfRow(static_cast<std::size_t>(row)), false);
    if (row < state_.pinned_rows)
        return;
    const int top = TimelineRenderer::contentTop(*data_, state_, static_cast<std::size_t>(row));
    const int view_h = TimelineRenderer::viewportHeight(height());
    const int pinned = state_.pinned_height;
    if (top < state_.scroll_y + pinned || top + TimelineData::kRowHeight > state_.scroll_y + view_h)
        scroll_->setValue(std::max(0, top - pinned - (view_h - pinned) / 3));
}

void TimelineView::followFlow() {
    if (!data_ || !state_.flow_from || !state_.flow_to)
        return;
    const std::uint32_t other =
        state_.selected == state_.flow_to ? *state_.flow_from : *state_.flow_to;
    const auto& a = data_->activity(other);
    const double start = static_cast<double>(a.start_ns);
    const double end = static_cast<double>(a.end_ns);
    if (end < state_.mapping.startNs() || start > state_.mapping.endNs()) {
        // Off screen: centre it at the same zoom.
        const double half = state_.mapping.durationNs() / 2;
        setMappingInternal(TimeAxisMapping((start + end) / 2 - half, state_.mapping.nsPerPixel(),
                                           state_.mapping.width()));
    }
    ensureRowVisible(data_->rowOf(other));
    select(other);
}

void TimelineView::setTimeOrigin(std::int64_t t_ns) {
    state_.origin_ns = t_ns;
    hideToolTip();
    update();
    if (data_)
        emit statusMessage(
            tr("Times now count from %1 after the start of the trace (Shift+O resets)")
                .arg(formatTimeExact(t_ns - data_->beginNs(), data_->resolutionNs())));
}

void TimelineView::resetTimeOrigin() {
    state_.origin_ns.reset();
    hideToolTip();
    update();
    emit statusMessage(tr("Times count from the start of the trace"));
}

void TimelineView::setTimeOriginHere() {
    if (!data_)
        return;
    if (state_.selected) {
        setTimeOrigin(data_->activity(*state_.selected).start_ns);
        return;
    }
    setTimeOrigin(static_cast<std::int64_t>(std::llround(state_.mapping.mapXToTime(anchorX()))));
}

void TimelineView::hideToolTip() {
    if (QToolTip::isVisible())
        QToolTip::hideText();
}

void TimelineView::select(std::uint32_t activity) {
    state_.selected = activity;
    state_.flow_from.reset();
    state_.flow_to.reset();
    const auto& a = data_->activity(activity);
    const Category c = data_->category(activity);
    if (c == Category::RuntimeApi) {
        if (auto k = data_->gpuWorkLaunchedBy(activity)) {
            state_.flow_from = activity;
            state_.flow_to = *k;
        }
    } else if (is_gpu_work(c)) {
        if (auto api = data_->launchOf(activity)) {
            state_.flow_from = *api;
            state_.flow_to = activity;
        }
    }
    update();
    updateSearchStatus();
    emit activitySelected(activity);
    if (!highlightCollective(activity))  // else it said the collective's spread and waits
        emit statusMessage(QStringLiteral("%1 · %2").arg(
            data_->name(a.name), formatDuration(static_cast<double>(a.duration_ns()))));
}

void TimelineView::clearSelection() {
    const bool had_range = state_.range.has_value();
    state_.selected.reset();
    state_.flow_from.reset();
    state_.flow_to.reset();
    state_.range.reset();
    state_.collective = {};
    update();
    updateSearchStatus();
    if (had_range)
        emit rangeCleared();
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
    match_count_ = 0;
    if (!state_.name_matches.empty()) {
        for (const std::uint32_t idx : data_->gpuWorkByStart())
            match_count_ += state_.name_matches[data_->eventOf(idx).name] ? 1 : 0;
    }
    update();
    updateSearchStatus();
}

QString TimelineView::searchStatus() const {
    if (!data_ || search_.isEmpty())
        return {};
    if (match_count_ == 0)
        return tr("no matches");
    const auto is_match = [&](std::uint32_t idx) {
        return state_.name_matches[data_->eventOf(idx).name];
    };
    if (state_.selected && is_gpu_work(data_->category(*state_.selected)) &&
        is_match(*state_.selected)) {
        // Its place among the matches in the order Next walks them.
        std::size_t rank = 0;
        for (const std::uint32_t idx : data_->gpuWorkByStart()) {
            if (is_match(idx))
                ++rank;
            if (idx == *state_.selected)
                break;
        }
        return tr("%1 of %2").arg(rank).arg(match_count_);
    }
    return match_count_ == 1 ? tr("1 match") : tr("%1 matches").arg(match_count_);
}

void TimelineView::updateSearchStatus() {
    emit searchStatusChanged(searchStatus());
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
        return static_cast<double>(data_->eventOf(idx).start) < t;
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
        const std::uint32_t name = data_->eventOf(idx).name;
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
    const QColor ruler = Theme::get(state_.dark).ruler;
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
    relayout();
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
        if (toggleRankHeaderAt(static_cast<int>(event->position().y())))
            return;
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
        if (state_.range)
            emit rangeCleared();
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
            emit statusMessage(
                tr("Range of %1: its statistics are in the range panel (Esc clears it)")
                    .arg(formatDuration(state_.range->second - state_.range->first)));
        } else {
            state_.range.reset();
        }
        update();
        return;
    }
    if (moved_ || was != Drag::Pan)  // a press on the label column acted already
        return;
    const DrawItem* item =
        TimelineRenderer::hitTest(draw_list_, *data_, state_, event->position().toPoint());
    if (!item) {
        clickRankHeaderAt(event->position().toPoint());
        return;
    }
    const TimelineRow& row = data_->rows()[static_cast<std::size_t>(item->row)];
    if (item->kind != DrawKind::Event) {  // a fold, or a block whose events are loading
        setMappingInternal(zoomedToFold(*item, state_.mapping.width()));
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
        case Qt::Key_F:
            followFlow();
            break;
        case Qt::Key_R:
            rankKey(event->modifiers());
            break;
        case Qt::Key_O:
            if (event->modifiers() & Qt::ShiftModifier)
                resetTimeOrigin();
            else
                setTimeOriginHere();
            break;
        default:
            QWidget::keyPressEvent(event);
            return;
    }
    event->accept();
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event) {
    if (!data_ || event->pos().x() < TimelineRenderer::kLabelWidth)
        return;
    QMenu menu(this);
    const auto t = static_cast<std::int64_t>(
        std::llround(state_.mapping.mapXToTime(event->pos().x() - TimelineRenderer::kLabelWidth)));
    menu.addAction(tr("Set time origin here"), this, [this, t] { setTimeOrigin(t); });
    if (state_.selected) {
        const std::uint32_t sel = *state_.selected;
        menu.addAction(tr("Set time origin at the start of \"%1\" (O)")
                           .arg(data_->label(data_->activity(sel).name).left(40)),
                       this, [this, sel] { setTimeOrigin(data_->activity(sel).start_ns); });
    }
    if (state_.origin_ns)
        menu.addAction(tr("Reset time origin (Shift+O)"), this, [this] { resetTimeOrigin(); });
    if (state_.flow_from && state_.flow_to)
        menu.addAction(tr("Follow the flow arrow (F)"), this, [this] { followFlow(); });
    menu.exec(event->globalPos());
}

bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && data_) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const DrawItem* item =
                TimelineRenderer::hitTest(draw_list_, *data_, state_, help->pos()))
            QToolTip::showText(help->globalPos(), describe(*item), this);
        else if (!showRankHeaderToolTip(help->pos(), help->globalPos()))
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

QString TimelineView::describe(const DrawItem& item) const {
    const QString text = activityTooltip(*data_, state_, item);
    if (item.kind != DrawKind::Event)
        return text;
    const auto& row = data_->rows()[static_cast<std::size_t>(item.row)];
    return text + collectiveTooltip(*data_, collectives_.find(row.events[item.first].activity));
}

}  // namespace trainscope::gui
