// Timeline draw list and painting: folding, visible window, pixel positions, and the
// view's interaction (wheel zoom around the cursor, keys, flow arrows, search).
#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>
#include <algorithm>
#include <numeric>

#include "gui/loading/TraceLoader.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "gui/timeline/TimelineView.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "tests/gui/GuiTestUtil.hpp"
#include "tests/gui/TraceDbGenerator.hpp"

using namespace trainscope;
using namespace trainscope::gui;
using trainscope::gui::testing::kernelAt;

namespace {

profiler::Trace gpuTrace() {
    profiler::Trace t;
    t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 1, "GPU 0 · stream 7"});
    return t;
}

std::vector<DrawItem> itemsOf(const TimelineData& d, const TimeAxisMapping& m) {
    std::vector<DrawItem> out;
    TimelineRenderer::appendRow(d.rows().at(0), 0, m, out);
    return out;
}

}  // namespace

class TestTimelineRender : public QObject {
    Q_OBJECT
  private slots:
    void foldsSubPixelKernelsWithTheRightCount() {
        auto t = gpuTrace();
        // Ten 10 ns kernels 20 ns apart: 200 ns in all, at 100 ns/px = 2 px.
        for (int i = 0; i < 10; ++i)
            kernelAt(t, 0, 1000 + i * 20, 1010 + i * 20, "elementwise_kernel");
        kernelAt(t, 0, 50'000, 80'000, "implicit_convolve_sgemm");  // 300 px wide
        const auto d = TimelineData::build(std::move(t));
        const auto items = itemsOf(*d, TimeAxisMapping(0.0, 100.0, 1000));
        QCOMPARE(items.size(), std::size_t(2));
        QCOMPARE(items[0].kind, DrawKind::Fold);
        QCOMPARE(items[0].count, 10u);
        QCOMPARE(items[0].begin, std::int64_t(1000));
        QCOMPARE(items[0].end, std::int64_t(1190));
        QCOMPARE(items[1].kind, DrawKind::Event);
        QCOMPARE(items[1].count, 1u);
        QCOMPARE(items[1].category, Category::Conv);
    }

    void foldsNeverSwallowAWideEvent() {
        auto t = gpuTrace();
        for (int i = 0; i < 5; ++i)
            kernelAt(t, 0, i * 20, i * 20 + 10, "relu_kernel");
        kernelAt(t, 0, 100, 100'000, "ampere_sgemm_128x64_tn");  // starts right after them
        const auto d = TimelineData::build(std::move(t));
        const auto items = itemsOf(*d, TimeAxisMapping(0.0, 100.0, 1000));
        QCOMPARE(items.size(), std::size_t(2));
        QCOMPARE(items[0].count, 5u);
        QCOMPARE(items[1].kind, DrawKind::Event);
        QCOMPARE(items[1].category, Category::Gemm);
    }

    void everyKernelIsCountedOnceAtEveryZoom_data() {
        QTest::addColumn<double>("nsPerPixel");
        QTest::newRow("1 ns/px: all visible") << 1.0;
        QTest::newRow("50 ns/px") << 50.0;
        QTest::newRow("1 us/px") << 1000.0;
        QTest::newRow("1 ms/px: one fold") << 1e6;
    }
    void everyKernelIsCountedOnceAtEveryZoom() {
        QFETCH(double, nsPerPixel);
        auto t = gpuTrace();
        std::int64_t at = 0;
        for (int i = 0; i < 1000; ++i) {
            const std::int64_t d = 5 + (i * 37) % 400;
            static const char* const kNames[] = {"k0", "k1", "k2", "k3", "k4", "k5", "k6"};
            kernelAt(t, 0, at, at + d, kNames[i % 7]);
            at += d + (i % 11) * 3;
        }
        const auto d = TimelineData::build(std::move(t));
        const auto m = TimeAxisMapping(0.0, nsPerPixel,
                                       static_cast<int>(static_cast<double>(at) / nsPerPixel) + 10);
        const auto items = itemsOf(*d, m);
        const auto total =
            std::accumulate(items.begin(), items.end(), 0u,
                            [](unsigned s, const DrawItem& i) { return s + i.count; });
        QCOMPARE(total, 1000u);
        for (std::size_t i = 1; i < items.size(); ++i)
            QVERIFY(items[i].first ==
                    items[i - 1].first + items[i - 1].count);  // contiguous, no overlap
        for (const auto& item : items) {
            if (item.kind == DrawKind::Event && item.count == 1 &&
                item.w >= TimelineRenderer::kMinPx)
                continue;
            // Folded or single narrow items: never wider than the cap plus one narrow event.
            QVERIFY(item.w <= TimelineRenderer::kFoldMaxPx + 2 * TimelineRenderer::kMinPx + 1);
        }
    }

    void onlyTheVisibleWindowIsVisited() {
        auto t = gpuTrace();
        for (int i = 0; i < 100; ++i)
            kernelAt(t, 0, i * 1000, i * 1000 + 500, "gemm");
        const auto d = TimelineData::build(std::move(t));
        // [20 000, 30 000) at 10 ns/px: kernels 20..29.
        const auto items = itemsOf(*d, TimeAxisMapping(20'000.0, 10.0, 1000));
        QCOMPARE(items.size(), std::size_t(10));
        QCOMPARE(items.front().first, 20u);
        QCOMPARE(items.back().first, 29u);
        // A long kernel starting before the window is still drawn (max_end search).
        auto t2 = gpuTrace();
        kernelAt(t2, 0, 0, 1'000'000, "conv");
        const auto d2 = TimelineData::build(std::move(t2));
        QCOMPARE(itemsOf(*d2, TimeAxisMapping(500'000.0, 10.0, 100)).size(), std::size_t(1));
    }

    // Zoomed out over a dense stream, the row paints from its level-of-detail buckets: the
    // same wide kernels at the same pixels as from the events, every kernel counted once in
    // time order, far fewer items than kernels, folds coloured by their longest kernel.
    void paintsFromSummariesWhenZoomedOut() {
        auto t = gpuTrace();
        std::int64_t at = 0;
        int kernels = 0;
        for (int i = 0; i < 40'000; ++i, ++kernels) {
            const bool longest = i % 9 == 0;  // so every fold holds one
            kernelAt(t, 0, at, at + (longest ? 50 : 5 + i % 40),
                     longest ? "reduce_kernel" : "relu_kernel");
            at += 60 + (i * 7) % 50;
            if (i % 8000 == 4000) {
                kernelAt(t, 0, at, at + 2'000'000, "implicit_convolve_sgemm");
                at += 2'000'100;
                ++kernels;
            }
        }
        const auto d = TimelineData::build(std::move(t));
        const TimelineRow& row = d->rows().at(0);
        QVERIFY(!row.lod.empty());
        const auto m = TimeAxisMapping::fit(0.0, static_cast<double>(at), 1000);
        QVERIFY(row.lodFor(m.nsPerPixel()) != nullptr);
        const auto items = itemsOf(*d, m);
        std::vector<DrawItem> raw;
        const auto [first, last] = row.window(m.startNs(), m.endNs());
        TimelineRenderer::appendEvents(row, 0, m, first, last, raw);
        const auto total =
            std::accumulate(items.begin(), items.end(), 0u,
                            [](unsigned s, const DrawItem& i) { return s + i.count; });
        QCOMPARE(total, static_cast<unsigned>(kernels));
        for (std::size_t i = 1; i < items.size(); ++i)
            QCOMPARE(items[i].first, items[i - 1].first + items[i - 1].count);
        QVERIFY(items.size() < 1000);
        auto wide = [](const std::vector<DrawItem>& list) {
            std::vector<std::pair<std::int64_t, float>> out;
            for (const DrawItem& item : list) {
                if (item.kind == DrawKind::Event && item.w >= TimelineRenderer::kMinPx)
                    out.emplace_back(item.begin, item.x);
            }
            return out;
        };
        QCOMPARE(wide(items).size(), std::size_t(5));
        QCOMPARE(wide(items), wide(raw));
        // Folded from buckets: the colour of the longest kernel (a fold of the events
        // beside a wide one is folded from events and takes its first event's).
        std::size_t folds = 0;
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (items[i].kind != DrawKind::Fold)
                continue;
            ++folds;
            auto is_wide = [&](std::size_t k) {
                return k < items.size() && items[k].kind == DrawKind::Event &&
                       items[k].w >= TimelineRenderer::kMinPx;
            };
            if (!is_wide(i + 1) && !(i > 0 && is_wide(i - 1)))
                QCOMPARE(items[i].category, Category::Reduction);
        }
        QVERIFY(folds > 10);
        // Zoomed in to a few events per pixel, the events themselves are painted.
        QVERIFY(row.lodFor(TimeAxisMapping(0.0, 10.0, 1000).nsPerPixel()) == nullptr);
    }

    // The loader paints from the summaries stored with the trace, and makes them only for
    // a run stored without them.
    void loaderUsesTheStoredSummaries() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("r.db")).toStdString();
        const auto run = testing::writeDatabase(path, {20000, 0, 3});
        auto rows_with_lod = [&] {
            const auto loaded = TraceLoader::loadNow(QString::fromStdString(path), run);
            return std::count_if(loaded->timeline->rows().begin(), loaded->timeline->rows().end(),
                                 [](const TimelineRow& r) { return !r.lod.empty(); });
        };
        const auto stored = rows_with_lod();
        QVERIFY(stored > 0);
        {
            reports::ResultsDatabase db(path, reports::OpenMode::CreateOrOpen);
            db.exec("DELETE FROM lane_summaries");  // stored, but none kept: paint events
        }
        QCOMPARE(rows_with_lod(), 0);
        {
            reports::ResultsDatabase db(path, reports::OpenMode::CreateOrOpen);
            db.exec("DELETE FROM lane_summary_runs");  // as a run stored before them
        }
        QCOMPARE(rows_with_lod(), stored);
    }

    // The store summarizes a trace on its own clock; a trace of absolute clock values is
    // rebased when it is indexed, and its stored summaries with it.
    void storedSummariesOfAnAbsoluteClockTraceAreRebased() {
        auto t = gpuTrace();
        const std::int64_t base = 1'700'000'000'000'000'000;
        std::int64_t at = 0;
        for (int i = 0; i < 20'000; ++i) {
            kernelAt(t, 0, base + at, base + at + 20 + i % 7, "relu_kernel");
            at += 50 + i % 30;
        }
        auto stored = profiler::summarize_rows(t);
        auto copy = t;
        const auto from_store =
            TimelineData::build(std::move(copy), nullptr, {}, std::move(stored));
        const auto made = TimelineData::build(std::move(t));
        const auto& a = from_store->rows().at(0).lod;
        const auto& b = made->rows().at(0).lod;
        QVERIFY(!b.empty());
        QCOMPARE(a.size(), b.size());
        for (std::size_t l = 0; l < a.size(); ++l) {
            QCOMPARE(a[l].width_ns, b[l].width_ns);
            QCOMPARE(a[l].origin_ns, b[l].origin_ns);
            QCOMPARE(a[l].buckets.size(), b[l].buckets.size());
            for (std::size_t i = 0; i < a[l].buckets.size(); ++i) {
                QCOMPARE(a[l].buckets[i].first_start, b[l].buckets[i].first_start);
                QCOMPARE(a[l].buckets[i].last_end, b[l].buckets[i].last_end);
                QCOMPARE(a[l].buckets[i].busy_ns, b[l].buckets[i].busy_ns);
                QCOMPARE(a[l].buckets[i].count, b[l].buckets[i].count);
            }
        }
        QCOMPARE(a.front().buckets.front().first_start, std::int64_t(0));
    }

    void kernelIsPaintedAtItsTime() {
        auto t = gpuTrace();
        kernelAt(t, 0, 0, 10, "elementwise_kernel");            // trace start
        kernelAt(t, 0, 5000, 6000, "implicit_convolve_sgemm");  // the one we look for
        kernelAt(t, 0, 9990, 10'000, "elementwise_kernel");     // trace end
        const auto d = TimelineData::build(std::move(t));
        const QSize size(1210, 300);
        TimelineViewState s;
        s.mapping = TimeAxisMapping::fit(0, 10'000, TimelineRenderer::dataWidth(size.width()));
        QCOMPARE(s.mapping.nsPerPixel(), 10.0);
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        std::vector<DrawItem> list;
        {
            QPainter p(&image);
            TimelineRenderer::paint(p, *d, s, size, list);
        }
        const int y = TimelineRenderer::rowTop(d->rows()[0], 0) + TimelineData::kRowHeight / 2;
        const QColor conv = category_color(Category::Conv);
        const int x_mid =
            TimelineRenderer::kLabelWidth + static_cast<int>(s.mapping.mapTimeToX(5500));
        QCOMPARE(x_mid, TimelineRenderer::kLabelWidth + 550);
        // Inside the kernel (away from its label text): the conv colour.
        QCOMPARE(image.pixelColor(TimelineRenderer::kLabelWidth + 502, y + 6).rgb(), conv.rgb());
        QCOMPARE(image.pixelColor(TimelineRenderer::kLabelWidth + 598, y - 6).rgb(), conv.rgb());
        // Just outside it: not.
        QVERIFY(image.pixelColor(TimelineRenderer::kLabelWidth + 495, y).rgb() != conv.rgb());
        QVERIFY(image.pixelColor(TimelineRenderer::kLabelWidth + 606, y).rgb() != conv.rgb());
    }

    void wheelZoomKeepsTheTimeUnderTheCursor() {
        TimelineView view;
        view.resize(1000, 500);
        view.setData(TimelineData::build(testing::makeTrace({2000, 1.0, 3})));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QPointF pos(600, 120);
        const double x = pos.x() - TimelineRenderer::kLabelWidth;
        const double before = view.state().mapping.mapXToTime(x);
        const double scale = view.state().mapping.nsPerPixel();
        QWheelEvent wheel(pos, view.mapToGlobal(pos), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(view.state().mapping.nsPerPixel() < scale);
        QVERIFY(qAbs(view.state().mapping.mapXToTime(x) - before) < 1e-3);
        // Drag pan: the time under the cursor follows the cursor.
        const double t_at = view.state().mapping.mapXToTime(x);
        QTest::mousePress(&view, Qt::LeftButton, Qt::NoModifier, pos.toPoint());
        QTest::mouseMove(&view, pos.toPoint() + QPoint(-50, 0));
        QTest::mouseRelease(&view, Qt::LeftButton, Qt::NoModifier, pos.toPoint() + QPoint(-50, 0));
        QVERIFY(qAbs(view.state().mapping.mapXToTime(x - 50) - t_at) < 1e-3);
    }

    void keysZoomPanAndHome() {
        TimelineView view;
        view.resize(1000, 400);
        view.setData(TimelineData::build(testing::makeTrace({2000, 1.0, 3})));
        const auto fitted = view.state().mapping;
        QTest::keyClick(&view, Qt::Key_W);
        QVERIFY(view.state().mapping.nsPerPixel() < fitted.nsPerPixel());
        const double start = view.state().mapping.startNs();
        QTest::keyClick(&view, Qt::Key_D);
        QVERIFY(view.state().mapping.startNs() > start);
        QTest::keyClick(&view, Qt::Key_A);
        QVERIFY(qAbs(view.state().mapping.startNs() - start) < 1e-3);
        QTest::keyClick(&view, Qt::Key_Minus);
        QTest::keyClick(&view, Qt::Key_Home);
        QCOMPARE(view.state().mapping, fitted);
    }

    void apiCallFlowsToItsKernel() {
        TimelineView view;
        view.resize(1000, 400);
        const auto d = TimelineData::build(testing::makeTrace({500, 1.0, 5}));
        view.setData(d);
        // The first cudaLaunchKernel and the kernel with its correlation id.
        std::optional<std::uint32_t> api;
        for (std::uint32_t i = 0; i < d->trace().activities.size(); ++i) {
            const auto& a = d->activity(i);
            if (a.kind == profiler::ActivityKind::RuntimeApi &&
                d->name(a.name) == QLatin1String("cudaLaunchKernel")) {
                api = i;
                break;
            }
        }
        QVERIFY(api);
        view.zoomToActivity(*api);
        QCOMPARE(view.state().flow_from, api);
        QVERIFY(view.state().flow_to);
        const auto& k = d->activity(*view.state().flow_to);
        QCOMPARE(k.kind, profiler::ActivityKind::Kernel);
        QCOMPARE(d->details(*view.state().flow_to).correlation, d->details(*api).correlation);
        const QImage image = view.renderImage(QSize(1000, 400));
        if (qEnvironmentVariableIsSet("TS_GUI_SAVE_IMAGES"))
            image.save(QStringLiteral("/tmp/flow.png"));
        QVERIFY(testing::distinctColours(image) > 20);
    }

    void searchFindsNextAndPrevious() {
        TimelineView view;
        view.resize(1000, 400);
        const auto d = TimelineData::build(testing::makeTrace({500, 1.0, 5}));
        view.setData(d);
        view.setSearchText(QStringLiteral("sgemm"));
        view.findNext();
        QVERIFY(view.state().selected);
        const auto first = *view.state().selected;
        QVERIFY(d->name(d->activity(first).name).contains(QLatin1String("sgemm")));
        view.findNext();
        const auto second = *view.state().selected;
        QVERIFY(second != first);
        QVERIFY(d->activity(second).start_ns >= d->activity(first).start_ns);
        view.findPrevious();
        QCOMPARE(*view.state().selected, first);
    }

    void foldTooltipAndClickZoomIn() {
        auto t = gpuTrace();
        for (int i = 0; i < 40; ++i)
            kernelAt(t, 0, 100'000 + i * 20, 100'010 + i * 20, "relu_kernel");
        kernelAt(t, 0, 0, 10, "first");
        kernelAt(t, 0, 10'000'000, 10'000'010, "last");
        TimelineView view;
        view.resize(1000 + 20, 300);
        view.setData(TimelineData::build(std::move(t)));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage shown = view.grab().toImage();  // paints: leaves the draw list
        Q_UNUSED(shown);
        const auto& m = view.state().mapping;
        const int x = TimelineRenderer::kLabelWidth + static_cast<int>(m.mapTimeToX(100'400));
        const int y =
            TimelineRenderer::rowTop(view.data()->rows()[0], 0) + TimelineData::kRowHeight / 2;
        std::vector<DrawItem> list;
        TimelineRenderer::buildDrawList(*view.data(), view.state(), QSize(1000, 300), list);
        const DrawItem* fold =
            TimelineRenderer::hitTest(list, *view.data(), view.state(), QPoint(x, y));
        QVERIFY(fold);
        QCOMPARE(fold->kind, DrawKind::Fold);
        QCOMPARE(fold->count, 40u);
        const QString tip = view.describe(*fold);
        QVERIFY2(tip.contains(QLatin1String("40 events folded")), qPrintable(tip));
        QVERIFY(tip.contains(QLatin1String("Click to zoom in")));
        const double before = m.durationNs();
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, QPoint(x, y));
        QVERIFY(view.state().mapping.durationNs() < before / 100);
        QVERIFY(view.state().mapping.startNs() <= 100'000);
        QVERIFY(view.state().mapping.endNs() >= 100'790);
    }

    void kernelTooltipHasTheFullRecord() {
        TimelineView view;
        view.resize(1000, 400);
        const auto d = TimelineData::build(testing::makeTrace({300, 1.0, 9}));
        view.setData(d);
        const auto& rows = d->rows();
        const auto row = std::find_if(rows.begin(), rows.end(), [](const TimelineRow& r) {
            return r.lane_kind == profiler::LaneKind::GpuStream &&
                   r.label.contains(QLatin1String("compute"));
        });
        QVERIFY(row != rows.end());
        DrawItem item;
        item.row = static_cast<int>(row - rows.begin());
        item.first = 0;
        const QString tip = view.describe(item);
        for (const char* key : {"grid", "block", "registers/thread", "shared memory", "duration",
                                "correlation", "launched by", "cudaLaunchKernel"})
            QVERIFY2(tip.contains(QLatin1String(key)),
                     qPrintable(key + QStringLiteral(" missing in ") + tip));
    }

    void collapsingALaneHidesItsNestedRows() {
        TimelineView view;
        view.resize(1000, 400);
        const auto d = TimelineData::build(testing::makeTrace({500, 1.0, 5}));
        view.setData(d);
        const auto& rows = d->rows();
        const auto nvtx = std::find_if(rows.begin(), rows.end(), [](const TimelineRow& r) {
            return r.lane_kind == profiler::LaneKind::Nvtx;
        });
        QVERIFY(nvtx != rows.end());
        const auto first = static_cast<std::size_t>(nvtx - rows.begin());
        QCOMPARE(rows[first + 2].depth, 2);
        const int full = TimelineRenderer::contentHeight(*d, view.state());
        // Click on the lane's label.
        const int y = TimelineRenderer::kRulerHeight +
                      TimelineRenderer::contentTop(*d, view.state(), first) + 5;
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, QPoint(40, y));
        QCOMPARE(TimelineRenderer::contentTop(*d, view.state(), first + 1), -1);
        QCOMPARE(TimelineRenderer::contentTop(*d, view.state(), first + 2), -1);
        QCOMPARE(TimelineRenderer::contentHeight(*d, view.state()),
                 full - 2 * TimelineData::kRowHeight);
        std::vector<DrawItem> list;
        TimelineRenderer::buildDrawList(*d, view.state(), QSize(1000, 400), list);
        for (const auto& item : list)
            QVERIFY(item.row != static_cast<int>(first + 1) &&
                    item.row != static_cast<int>(first + 2));
        // Rows below moved up: the row under a y is the next lane's.
        QCOMPARE(TimelineRenderer::rowAt(*d, view.state(), y), static_cast<int>(first));
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, QPoint(40, y));
        QCOMPARE(TimelineRenderer::contentHeight(*d, view.state()), full);
        // Deep lanes collapse on request, GPU lanes never.
        view.collapseDeepLanes(1);
        QCOMPARE(TimelineRenderer::contentTop(*d, view.state(), first + 1), -1);
        QVERIFY(TimelineRenderer::contentHeight(*d, view.state()) < full);
    }

    void absoluteTimestampsAreRebased() {
        auto t = gpuTrace();
        const std::int64_t abs = 1'700'000'000'000'000'000;
        kernelAt(t, 0, abs + 1000, abs + 1010, "a");
        kernelAt(t, 0, abs + 2001, abs + 2003, "b");
        const auto d = TimelineData::build(std::move(t));
        QCOMPARE(d->beginNs(), std::int64_t(0));
        QCOMPARE(d->trace().base_ns, abs + 1000);
        QCOMPARE(d->activity(1).start_ns, std::int64_t(1001));
        QCOMPARE(d->activity(1).duration_ns(), std::int64_t(2));
    }

    void busyTimeIsTheUnionOfGpuWork() {
        auto t = gpuTrace();
        t.add_lane({profiler::LaneKind::GpuStream, 0, 8, 1, "GPU 0 · stream 8"});
        kernelAt(t, 0, 0, 100, "a");
        kernelAt(t, 1, 50, 150, "b");  // overlaps: union 0..150
        kernelAt(t, 0, 300, 400, "c");
        const auto d = TimelineData::build(std::move(t));
        QCOMPARE(d->deviceBusy().size(), std::size_t(1));
        const auto& b = d->deviceBusy()[0];
        QCOMPARE(b.busyNs(0, 1000), 250.0);
        QCOMPARE(b.busyNs(100, 350), 100.0);
        QCOMPARE(b.busyNs(160, 290), 0.0);
    }
};

QTEST_MAIN(TestTimelineRender)
#include "tst_timeline_render.moc"
