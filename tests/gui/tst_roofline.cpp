// The Roofline tab's chart: points land under the roofs where the axes say, and a click
// on a point names its op (MainWindow then selects the op's instances on the timeline).
#include <QSignalSpy>
#include <QTest>
#include <cmath>

#include "gui/roofline/RooflineView.hpp"
#include "reports/roofline/RooflineExtent.hpp"

using trainscope::gui::RooflineAxes;
using trainscope::gui::RooflineView;
using trainscope::reports::Bound;
using trainscope::reports::OpRooflineRow;
using trainscope::reports::Roofs;

namespace {

OpRooflineRow op(const char* name, double flops, double bytes, std::int64_t ns) {
    OpRooflineRow r;
    r.name = name;
    r.flops = flops;
    r.bytes = bytes;
    r.device_ns = ns;
    r.intensity = flops / bytes;
    r.achieved_flops_per_s = flops / (static_cast<double>(ns) * 1e-9);
    r.achieved_bytes_per_s = bytes / (static_cast<double>(ns) * 1e-9);
    return r;
}

// 1 TFLOP/s, 100 GB/s: ridge at 10 FLOP/byte.
const Roofs kRoofs{1e12, 100e9};

std::vector<OpRooflineRow> ops() {
    return {op("conv_fwd", 2e9, 1e6, 10'000'000),  // 2000 FLOP/byte, 200 GFLOP/s
            op("relu_fwd", 1e6, 8e6, 1'000'000),   // 0.125 FLOP/byte, 1 GFLOP/s
            op("copy_h2d", 0.0, 4e6, 1'000'000)};  // no FLOPs: not on the chart
}

}  // namespace

class TestRoofline : public QObject {
    Q_OBJECT
  private slots:
    void axesCoverOpsAndRoofsInWholeDecades() {
        const RooflineAxes axes(ops(), kRoofs, QRectF(0, 0, 600, 400));
        // Intensity 0.125 .. 2000 and the ridge ±1 decade: 1e-1 .. 1e4.
        QCOMPARE(axes.xFirstDecade(), -1);
        QCOMPARE(axes.xLastDecade(), 4);
        QCOMPARE(axes.yLastDecade(), 12);  // the compute roof
        QCOMPARE(axes.map(0.1, std::pow(10.0, axes.yFirstDecade())), QPointF(0, 400));
        QCOMPARE(axes.map(1e4, 1e12), QPointF(600, 0));
        // The HTML report's chart spans the same decades: one extent for both.
        const auto extent = trainscope::reports::roofline_extent(ops(), kRoofs);
        QCOMPARE(axes.xFirstDecade(), extent.x_lo);
        QCOMPARE(axes.xLastDecade(), extent.x_hi);
        QCOMPARE(axes.yFirstDecade(), extent.y_lo);
        QCOMPARE(axes.yLastDecade(), extent.y_hi);
    }

    void pointsSitUnderTheirRoof() {
        RooflineView view;
        view.resize(900, 500);
        view.setData(ops(), kRoofs);
        const RooflineAxes axes(ops(), kRoofs, QRectF(70, 30, 900 - 240, 500 - 80));
        for (int i = 0; i < 2; ++i) {
            const auto& r = view.ops()[static_cast<std::size_t>(i)];
            const QPointF roof = axes.map(r.intensity, kRoofs.attainable_flops_per_s(r.intensity));
            QVERIFY(view.centreOf(i).y() >= roof.y());  // below (or on) the roof: y grows down
        }
        QCOMPARE(view.centreOf(2), QPointF(-1, -1));  // a copy has no place
        QCOMPARE(view.opAt(QPointF(1, 1)), -1);
    }

    void clickingAPointNamesItsOp() {
        RooflineView view;
        view.resize(900, 500);
        view.setData(ops(), kRoofs);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy clicked(&view, &RooflineView::opClicked);
        const QPointF relu = view.centreOf(1);
        QCOMPARE(view.opAt(relu), 1);
        QTest::mouseClick(&view, Qt::LeftButton, {}, relu.toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toString(), QStringLiteral("relu_fwd"));
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(2, 2));  // nothing there
        QCOMPARE(clicked.count(), 1);
        // It paints without data and with it.
        QVERIFY(!view.grab().isNull());
        view.setData({}, Roofs{});
        QVERIFY(!view.grab().isNull());
    }
};

QTEST_MAIN(TestRoofline)
#include "tst_roofline.moc"
