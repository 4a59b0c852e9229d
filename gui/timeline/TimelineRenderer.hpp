#pragma once

#include <QColor>
#include <QRect>
#include <QSize>
#include <QString>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "gui/app/Theme.hpp"
#include "gui/timeline/CollectiveHighlight.hpp"
#include "gui/timeline/KernelCategory.hpp"
#include "gui/timeline/RankLaneGroups.hpp"
#include "gui/timeline/TimeAxisMapping.hpp"
#include "gui/timeline/TimelineData.hpp"

class QFontMetrics;
class QPainter;
class QPoint;

namespace trainscope::gui {

// Everything the timeline shows besides the data: a value the view owns and the
// renderer reads, so tests and benchmarks paint exactly what the widget paints.
struct TimelineViewState {
    TimeAxisMapping mapping;                         // x = 0 at the left edge of the data area
    int scroll_y = 0;                                // content pixels scrolled out at the top
    std::optional<std::uint32_t> selected;           // activity index
    std::optional<std::uint32_t> flow_from;          // API call of a flow arrow
    std::optional<std::uint32_t> flow_to;            // the GPU work it launched
    std::optional<std::pair<double, double>> range;  // shift-drag selection, ns
    std::vector<bool> name_matches;                  // by StringId; empty: no search
    bool dark = true;
    // Row layout when lanes are collapsed: content y of each row, -1 for a hidden row.
    // Empty: every row at TimelineRow::top.
    std::vector<int> row_tops;
    int content_height = -1;
    // The device rows (GPU streams and their annotation lanes) stay at the top while the
    // host rows scroll under them: rows [0, pinned_rows) ignore scroll_y, and the host
    // rows show below pinned_height. 0 and 0: nothing pinned (see pinRows).
    int pinned_rows = 0;
    int pinned_height = 0;
    // Times read relative to this point on the ruler and in tooltips (trace clock, ns);
    // empty: relative to the start of the trace.
    std::optional<std::int64_t> origin_ns;
    // A distributed job's rank headers in this layout (RankLaneGroups::layout; nothing is
    // pinned then); empty: no groups.
    std::vector<RankHeader> rank_headers;
    // The selected collective on every rank (CollectiveIndex::find); empty: none.
    CollectiveSelection collective;
};

// A major tick of the ruler: its position and, when the whole text fits inside the
// data area, its label (empty otherwise: a label is never drawn cut).
struct RulerTick {
    double x = 0;  // data-area pixels
    QString label;
    QRect label_rect;  // widget coordinates; empty without a label
};

// Pending: a block painted from the summaries of a row whose events are still loading
// (TimelineData::buildOutline): its count is exact, but it has no event to show.
enum class DrawKind : std::uint8_t { Event, Fold, Pending };

// One entry of the draw list: a visible event, or a run of sub-pixel events folded
// into one block (count > 1), or a Pending block (first means nothing then).
struct DrawItem {
    int row = 0;
    float x = 0;  // data-area pixels
    float w = 0;
    DrawKind kind = DrawKind::Event;
    std::uint32_t first = 0;  // index into the row's events
    std::uint32_t count = 1;
    std::int64_t begin = 0;
    std::int64_t end = 0;
    Category category = Category::OtherKernel;
    // What gives the item its colour: the event, or a fold's longest event (its first
    // one when folded from events, the summaries' dominant one when folded from buckets).
    std::uint32_t name = 0;
};

class TimelineRenderer {
  public:
    static constexpr int kLabelWidth = 210;
    static constexpr int kRulerHeight = 30;
    static constexpr int kLegendHeight = 24;
    static constexpr double kMinPx = 3.0;       // narrower events fold
    static constexpr double kFoldMaxPx = 12.0;  // a fold stops growing here

    static int dataWidth(int widget_width) { return std::max(widget_width - kLabelWidth, 1); }
    static int rowTop(const TimelineRow& row, int scroll_y) {
        return kRulerHeight + row.top - scroll_y;
    }
    // Content y of row r in the state's layout; -1 when the row is hidden (collapsed lane).
    static int contentTop(const TimelineData& data, const TimelineViewState& state, std::size_t r) {
        return state.row_tops.empty() ? data.rows()[r].top : state.row_tops[r];
    }
    static int contentHeight(const TimelineData& data, const TimelineViewState& state) {
        return state.content_height >= 0 ? state.content_height : data.contentHeight();
    }
    // The layout with the lanes in `collapsed` (by LaneId) reduced to their first row.
    static void layoutRows(const TimelineData& data, const std::vector<bool>& collapsed,
                           TimelineViewState& state);
    // Pins the leading device rows when they take at most half the viewport (else a
    // screen of GPU streams would leave no room for the host); call after any layout
    // change or resize.
    static void pinRows(const TimelineData& data, TimelineViewState& state, int widget_height);
    // Widget y of row r's top in the state's layout (pinned rows ignore the scroll).
    static int rowScreenTop(const TimelineData& data, const TimelineViewState& state,
                            std::size_t r) {
        const int scroll = static_cast<int>(r) < state.pinned_rows ? 0 : state.scroll_y;
        return kRulerHeight + contentTop(data, state, r) - scroll;
    }
    // The time the ruler and tooltips count from.
    static std::int64_t originNs(const TimelineData& data, const TimelineViewState& state) {
        return state.origin_ns.value_or(data.beginNs());
    }
    static std::vector<RulerTick> rulerTicks(const TimelineData& data,
                                             const TimelineViewState& state, int widget_width,
                                             const QFontMetrics& metrics);
    // A folded block: desaturated category colour with hatching, so that a run of tiny
    // events never looks like one long event (the legend's swatch is painted by it too).
    static void paintFold(QPainter& painter, const QRect& rect, const QColor& category_color);
    static int viewportHeight(int widget_height) {
        return std::max(widget_height - kRulerHeight - kLegendHeight, 1);
    }

    // Appends the visible items of one row. Zoomed out so far that a pixel spans a bucket
    // of the row's level-of-detail summaries, it paints from them (appendBuckets);
    // otherwise from the events: two searches find the window, runs of sub-pixel events
    // are folded by jumping with lower_bound, never by visiting them (appendEvents).
    static void appendRow(const TimelineRow& row, int row_index, const TimeAxisMapping& mapping,
                          std::vector<DrawItem>& out);
    static void appendEvents(const TimelineRow& row, int row_index, const TimeAxisMapping& mapping,
                             std::size_t first, std::size_t last, std::vector<DrawItem>& out);
    // Runs of buckets whose events are all narrower than kMinPx fold into one item (the
    // count exact: the events starting in them; the colour the busiest bucket's longest
    // event's); a bucket holding a wider event is painted from its events. In a row whose
    // events are not loaded yet, both become Pending items with the same counts.
    static void appendBuckets(const TimelineRow& row, const LodLevel& level, int row_index,
                              const TimeAxisMapping& mapping, std::vector<DrawItem>& out);
    // The draw list of all rows inside the viewport.
    static void buildDrawList(const TimelineData& data, const TimelineViewState& state, QSize size,
                              std::vector<DrawItem>& out);
    // Paints the whole widget area (ruler, labels, lanes, overlays, legend) and leaves the
    // draw list in `list` for hit-testing.
    static void paint(QPainter& painter, const TimelineData& data, const TimelineViewState& state,
                      QSize size, std::vector<DrawItem>& list);
    // The item under a widget position, if any.
    static const DrawItem* hitTest(const std::vector<DrawItem>& list, const TimelineData& data,
                                   const TimelineViewState& state, QPoint pos);
    // The row under a widget y, or -1.
    static int rowAt(const TimelineData& data, const TimelineViewState& state, int y);
    static QColor eventColor(const TimelineData& data, const TimelineEvent& e);
    static QColor itemColor(const TimelineData& data, const DrawItem& item);
};

}  // namespace trainscope::gui
