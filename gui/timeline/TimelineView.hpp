#pragma once

#include <QPoint>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "gui/timeline/CollectiveHighlight.hpp"
#include "gui/timeline/RankLaneGroups.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"

class QScrollBar;

namespace trainscope::gui {

// The kernel timeline: lanes per host thread (NVTX by depth, API calls) and per GPU
// stream. Wheel zooms around the cursor, drag pans, shift-drag selects a range,
// W/S zoom, A/D pan, +/- zoom, Home shows everything.
class TimelineView : public QWidget {
    Q_OBJECT
  public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setData(std::shared_ptr<const TimelineData> timeline);
    [[nodiscard]] const std::shared_ptr<const TimelineData>& data() const { return data_; }
    [[nodiscard]] const TimelineViewState& state() const { return state_; }
    [[nodiscard]] QImage renderImage(QSize size) const;
    [[nodiscard]] QString describe(const DrawItem& item) const;
    // "3 of 102" (the selected match's place among the matches in time order),
    // "102 matches", "no matches", or empty without a search.
    [[nodiscard]] QString searchStatus() const;
    [[nodiscard]] const RankLaneGroups& rankGroups() const { return rank_groups_; }

  public slots:
    void setMapping(const trainscope::gui::TimeAxisMapping& mapping);
    void zoomToFit();
    // Shows `fraction` of the trace around its middle (screenshots, benchmarks).
    void zoomToFraction(double fraction);
    void zoomBy(double factor);
    void panBy(double fraction);
    void zoomToActivity(std::uint32_t activity);
    void setSearchText(const QString& text);
    void findNext();
    void findPrevious();
    void setDark(bool dark);
    void clearSelection();
    // Selects the other end of the flow arrow (API call <-> GPU work) and brings it into
    // view at the current zoom.
    void followFlow();
    // Times on the ruler and in tooltips count from t_ns (trace clock); reset: from the
    // start of the trace.
    void setTimeOrigin(std::int64_t t_ns);
    void resetTimeOrigin();
    // The origin at the selected event's start (a step range, a kernel), else at the
    // time under the cursor.
    void setTimeOriginHere();
    // Shows only the first row of a lane with nested rows (NVTX, host stacks), or all.
    void setLaneCollapsed(profiler::LaneId lane, bool collapsed);
    // Collapses every host lane deeper than max_rows rows (a readable first view).
    void collapseDeepLanes(int max_rows);
    // A distributed job's lanes are grouped per rank under a header (TimelineViewRanks.cpp):
    // fold a rank into its header row, fold all but the selected event's rank (or the one
    // under the cursor; R), unfold all (Shift+R).
    void setRankCollapsed(std::int32_t rank, bool collapsed);
    void collapseAllRanksButSelected();
    // Folds every other rank and scrolls to this one's header (the straggler table).
    void showOnlyRank(std::int32_t rank);
    void expandAllRanks();

  signals:
    void mappingChanged(const trainscope::gui::TimeAxisMapping& mapping);
    void rangeSelected(double t0_ns, double t1_ns);
    void rangeCleared();
    void searchStatusChanged(const QString& text);
    void activitySelected(std::uint32_t activity);
    void statusMessage(const QString& text);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

  private:
    void setMappingInternal(const TimeAxisMapping& mapping);
    void select(std::uint32_t activity);
    void find(bool forward);
    void updateScrollBar();
    // Scrolls vertically so that the row shows (pinned device rows always do).
    void ensureRowVisible(int row);
    void hideToolTip();
    void updateSearchStatus();
    [[nodiscard]] QSize paintSize() const;
    [[nodiscard]] double anchorX() const;

    std::shared_ptr<const TimelineData> data_;
    TimelineViewState state_;
    std::vector<DrawItem> draw_list_;
    QScrollBar* scroll_ = nullptr;
    enum class Drag { None, Pan, Range } drag_ = Drag::None;
    QPoint press_pos_;
    QPoint last_pos_;
    bool moved_ = false;
    bool fitted_ = true;  // showing everything: a resize refits
    double range_anchor_ns_ = 0;
    QString search_;
    std::size_t match_count_ = 0;  // GPU work whose name matches the search
    std::vector<bool> collapsed_;  // by LaneId
    void relayout();
    // Rank groups (TimelineViewRanks.cpp): reset for new data, the layout with or without
    // them, a click on a header and its tooltip, the R keys, the selected collective on
    // every rank.
    void resetRankGroups();
    void layOutLanes();
    bool toggleRankHeaderAt(int y);
    // A click on a header's row: on a folded rank's summary item, selects its event or
    // zooms into its folded block; elsewhere folds or unfolds the rank.
    void clickRankHeaderAt(QPoint pos);
    bool showRankHeaderToolTip(QPoint pos, QPoint global_pos);
    void rankKey(Qt::KeyboardModifiers modifiers);
    bool highlightCollective(std::uint32_t activity);
    RankLaneGroups rank_groups_;
    mutable CollectiveIndex collectives_;  // built on the first click or tooltip
};

}  // namespace trainscope::gui
