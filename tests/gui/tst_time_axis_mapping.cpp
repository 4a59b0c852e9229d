// TimeAxisMapping: time <-> pixel maths, zoom and pan keep the time under the cursor.
#include <QTest>

#include "gui/timeline/TimeAxisMapping.hpp"

using trainscope::gui::TimeAxisMapping;

class TestTimeAxisMapping : public QObject {
    Q_OBJECT
  private slots:
    void mapTimeToX_data() {
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("nsPerPixel");
        QTest::addColumn<double>("time");
        QTest::addColumn<double>("x");
        QTest::newRow("origin") << 0.0 << 1.0 << 0.0 << 0.0;
        QTest::newRow("one ns per px") << 0.0 << 1.0 << 250.0 << 250.0;
        QTest::newRow("1 us per px") << 0.0 << 1000.0 << 1.5e6 << 1500.0;
        QTest::newRow("offset start") << 1e9 << 1e6 << 1.5e9 << 500.0;
        QTest::newRow("before start") << 1000.0 << 10.0 << 500.0 << -50.0;
        QTest::newRow("sub-ns per px") << 42.0 << 0.25 << 43.0 << 4.0;
        QTest::newRow("an hour into the trace") << 3.6e12 << 1e3 << 3.6e12 + 2e6 << 2000.0;
    }
    void mapTimeToX() {
        QFETCH(double, start);
        QFETCH(double, nsPerPixel);
        QFETCH(double, time);
        QFETCH(double, x);
        const TimeAxisMapping m(start, nsPerPixel, 1000);
        QCOMPARE(m.mapTimeToX(time), x);
        QCOMPARE(m.mapXToTime(x), time);
    }

    void fit_data() {
        QTest::addColumn<double>("begin");
        QTest::addColumn<double>("end");
        QTest::addColumn<int>("width");
        QTest::newRow("1 s on 1000 px") << 0.0 << 1e9 << 1000;
        QTest::newRow("offset") << 5e6 << 7e6 << 1710;
        QTest::newRow("tiny") << 100.0 << 101.0 << 800;
    }
    void fit() {
        QFETCH(double, begin);
        QFETCH(double, end);
        QFETCH(int, width);
        const auto m = TimeAxisMapping::fit(begin, end, width);
        QCOMPARE(m.mapTimeToX(begin), 0.0);
        QVERIFY(qAbs(m.mapTimeToX(end) - width) < 1e-6);
        QCOMPARE(m.startNs(), begin);
        QVERIFY(qAbs(m.endNs() - end) < 1e-6 * (end - begin) + 1e-9);
        QCOMPARE(m.width(), width);
    }

    void zoomKeepsAnchor_data() {
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("anchorX");
        QTest::newRow("in at left edge") << 0.5 << 0.0;
        QTest::newRow("in at middle") << 0.8 << 500.0;
        QTest::newRow("out at right") << 1.25 << 999.0;
        QTest::newRow("deep in") << 1e-4 << 123.0;
        QTest::newRow("far out") << 1e4 << 777.0;
        QTest::newRow("past the limit") << 1e-12 << 321.0;
    }
    void zoomKeepsAnchor() {
        QFETCH(double, factor);
        QFETCH(double, anchorX);
        const TimeAxisMapping m(1e6, 1000.0, 1000);
        const double before = m.mapXToTime(anchorX);
        const auto z = m.zoomed(factor, anchorX);
        QVERIFY2(qAbs(z.mapXToTime(anchorX) - before) < 1e-6,
                 qPrintable(QStringLiteral("%1 vs %2").arg(z.mapXToTime(anchorX)).arg(before)));
        const double expected = qBound(TimeAxisMapping::kMinNsPerPixel, 1000.0 * factor,
                                       TimeAxisMapping::kMaxNsPerPixel);
        QCOMPARE(z.nsPerPixel(), expected);
        QCOMPARE(z.width(), m.width());
    }

    void zoomInThenOutRestores() {
        const TimeAxisMapping m(5e6, 250.0, 1200);
        const auto back = m.zoomed(0.5, 300).zoomed(2.0, 300);
        QVERIFY(qAbs(back.startNs() - m.startNs()) < 1e-6);
        QCOMPARE(back.nsPerPixel(), m.nsPerPixel());
    }

    void panKeepsTimeUnderCursor_data() {
        QTest::addColumn<double>("cursorX");
        QTest::addColumn<double>("dragPx");
        QTest::newRow("drag right") << 100.0 << 40.0;
        QTest::newRow("drag left") << 600.0 << -250.0;
        QTest::newRow("no drag") << 10.0 << 0.0;
    }
    void panKeepsTimeUnderCursor() {
        QFETCH(double, cursorX);
        QFETCH(double, dragPx);
        const TimeAxisMapping m(0.0, 37.5, 900);
        // Dragging the content by d pixels moves the view by -d.
        const auto p = m.panned(-dragPx);
        QVERIFY(qAbs(p.mapXToTime(cursorX + dragPx) - m.mapXToTime(cursorX)) < 1e-9);
        QCOMPARE(p.nsPerPixel(), m.nsPerPixel());
    }

    void withWidthKeepsScale() {
        const TimeAxisMapping m(100.0, 2.0, 500);
        const auto w = m.withWidth(1000);
        QCOMPARE(w.startNs(), 100.0);
        QCOMPARE(w.nsPerPixel(), 2.0);
        QCOMPARE(w.endNs(), 2100.0);
    }
};

QTEST_APPLESS_MAIN(TestTimeAxisMapping)
#include "tst_time_axis_mapping.moc"
