// A folded rank's summary row (docs/gui.md, "Ranks"): it answers the cursor as a lane does.
#include <QApplication>
#include <QHelpEvent>
#include <QTest>
#include <QToolTip>
#include <algorithm>
#include <vector>

#include "gui/timeline/RankLaneGroups.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "gui/timeline/TimelineView.hpp"
#include "tests/gui/RankLaneTestUtil.hpp"

using namespace trainscope;
using namespace trainscope::gui;
using namespace trainscope::gui::testing;
using R = TimelineRenderer;

class TestRankSummaryHit : public QObject {
    Q_OBJECT
  private slots:
    // A folded rank's summary row answers the cursor as a lane does: its event's tooltip
    // (name, rank) and a click that selects it, the rank staying folded; a folded block's
    // tooltip (count, rank, busy time) and a click that zooms into it.
    void summaryRowHasTooltipsAndSelects() {
        const auto d = jobTimeline("param_dlrm_kineto");
        TimelineView view;
        view.resize(1400, 900);
        view.setData(d);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRankCollapsed(1, true);
        const TimelineRow& summary = *headerOf(view, 1).summary;
        const TimelineEvent longest = longestEvent(summary);
        view.zoomToActivity(longest.activity);
        view.setRankCollapsed(1, true);  // showing it unfolded the rank
        view.clearSelection();
        const int y = RankLaneGroups::headerScreenTop(view.state(), headerOf(view, 1)) +
                      TimelineData::kRowHeight / 2;
        const QPoint on_event(
            R::kLabelWidth + static_cast<int>(view.state().mapping.mapTimeToX(
                                 static_cast<double>(longest.start + longest.end) / 2)),
            y);
        QHelpEvent help(QEvent::ToolTip, on_event, view.mapToGlobal(on_event));
        QApplication::sendEvent(&view, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(d->label(longest.name).toHtmlEscaped()) &&
                     QToolTip::text().contains(QStringLiteral("rank 1, folded")),
                 qPrintable(QToolTip::text()));
        QToolTip::hideText();
        QTest::mouseClick(&view, Qt::LeftButton, {}, on_event);
        QVERIFY(view.state().selected.has_value());
        QCOMPARE(*view.state().selected, longest.activity);
        QVERIFY(view.rankGroups().collapsed(1));

        // The whole trace: rank 1's many short kernels fold into blocks.
        view.clearSelection();
        view.zoomToFit();
        std::vector<DrawItem> items;
        R::appendRow(*headerOf(view, 1).summary, -1, view.state().mapping, items);
        const auto fold = std::find_if(items.begin(), items.end(), [](const DrawItem& i) {
            return i.kind == DrawKind::Fold && i.w >= 3;
        });
        QVERIFY(fold != items.end());
        const QPoint on_fold(R::kLabelWidth + static_cast<int>(fold->x + fold->w / 2), y);
        QHelpEvent fold_help(QEvent::ToolTip, on_fold, view.mapToGlobal(on_fold));
        QApplication::sendEvent(&view, &fold_help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("events</b> of rank 1, folded")) &&
                     QToolTip::text().contains(QStringLiteral("busy")),
                 qPrintable(QToolTip::text()));
        QToolTip::hideText();
        const double span_before = view.state().mapping.durationNs();
        QTest::mouseClick(&view, Qt::LeftButton, {}, on_fold);
        QVERIFY(view.state().mapping.durationNs() < span_before / 2);
        QVERIFY(view.state().mapping.startNs() <= static_cast<double>(fold->begin));
        QVERIFY(view.state().mapping.endNs() >= static_cast<double>(fold->end));
        QVERIFY(!view.state().selected.has_value());
        QVERIFY(view.rankGroups().collapsed(1));
    }
};

QTEST_MAIN(TestRankSummaryHit)
#include "tst_rank_summary_hit.moc"
