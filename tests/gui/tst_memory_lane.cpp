// The memory lane under the utilization tracks: a traced run's "memory/<class>" counters
// stacked in one lane (not one track each), on the timeline's time axis, showing a short
// peak at any zoom without stacking above the real total.
#include <QImage>
#include <QTest>

#include "gui/timeline/TimeAxisMapping.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "gui/utilization/MemoryLane.hpp"
#include "gui/utilization/UtilizationView.hpp"
#include "tests/gui/CpuTraceGenerator.hpp"

using namespace trainscope;
using namespace trainscope::gui;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

void add_series(profiler::Trace& trace, const char* name,
                std::vector<std::pair<std::int64_t, double>> samples, std::int32_t rank = 0) {
    profiler::CounterSeries s;
    s.name = std::string("memory/") + name;
    s.unit = "bytes";
    s.rank = rank;
    for (const auto& [t, v] : samples)
        s.samples.push_back({t, v});
    trace.counters.push_back(std::move(s));
}

// A CPU trace with weights resident for the whole run and activations of 3 MiB alive for
// the middle tenth of it.
profiler::Trace memory_trace(std::int64_t* begin, std::int64_t* end) {
    profiler::Trace trace = testing::makeCpuTrace({});
    std::int64_t first = trace.activities.front().start_ns;
    std::int64_t last = first;
    for (const auto& a : trace.activities) {
        first = std::min(first, a.start_ns);
        last = std::max(last, a.end_ns);
    }
    const std::int64_t span = last - first;
    add_series(trace, "weights", {{first, 1 * kMiB}});
    add_series(trace, "activations",
               {{first + span * 45 / 100, 3 * kMiB}, {first + span * 55 / 100, 0.0}});
    *begin = first;
    *end = last;
    return trace;
}

}  // namespace

class TestMemoryLane : public QObject {
    Q_OBJECT
  private slots:
    void memorySeriesAreOneStackedLane() {
        std::int64_t begin = 0, end = 0;
        auto data = TimelineData::build(memory_trace(&begin, &end));
        QCOMPARE(data->memoryStack().classes.size(), std::size_t(2));
        QCOMPARE(data->memoryStack().peak_total, 4 * kMiB);
        UtilizationView view;
        view.setData(data);
        QCOMPARE(view.trackCount(), 2);  // CPU busy and the memory lane, not one per class
    }

    void eachRankHasAStackOfItsOwn() {
        // Two ranks' series share their names: each rank's tensors are stacked apart, in a
        // lane of its own, never added to the other's.
        std::int64_t begin = 0, end = 0;
        profiler::Trace trace = memory_trace(&begin, &end);
        add_series(trace, "weights", {{begin, 1 * kMiB}}, 1);
        add_series(trace, "activations", {{begin, 5 * kMiB}, {end, 0.0}}, 1);
        auto data = TimelineData::build(std::move(trace));
        QCOMPARE(data->memoryStacks().size(), std::size_t(2));
        QCOMPARE(data->memoryStacks()[0].rank, 0);
        QCOMPARE(data->memoryStacks()[0].classes.size(), std::size_t(2));
        QCOMPARE(data->memoryStacks()[0].peak_total, 4 * kMiB);
        QCOMPARE(data->memoryStacks()[1].rank, 1);
        QCOMPARE(data->memoryStacks()[1].classes.size(), std::size_t(2));
        QCOMPARE(data->memoryStacks()[1].peak_total, 6 * kMiB);
        UtilizationView view;
        view.setData(data);
        QCOMPARE(view.trackCount(), 3);  // CPU busy and one memory lane per rank
    }

    void laneIsStackedOnTheTimelineAxis() {
        std::int64_t begin = 0, end = 0;
        auto data = TimelineData::build(memory_trace(&begin, &end));
        UtilizationView view;
        view.setData(data);
        const QSize size(1210,
                         2 * UtilizationView::kTrackHeight + UtilizationView::kAxisHeight + 4);
        const auto mapping = TimeAxisMapping::fit(static_cast<double>(data->beginNs()),
                                                  static_cast<double>(data->endNs()),
                                                  TimelineRenderer::dataWidth(size.width()));
        view.setMapping(mapping);
        const QImage image = view.renderImage(size);
        const int track_h = UtilizationView::trackHeight(size.height(), 2);
        const int top = track_h + 2 + 8;  // the second lane's data area
        const int bottom = top + track_h - 14 - 1;
        const QColor weights = MemoryLane::classColor(QStringLiteral("weights"));
        const QColor activations = MemoryLane::classColor(QStringLiteral("activations"));
        const auto x_at = [&](double fraction) {
            const double t =
                static_cast<double>(begin) + fraction * static_cast<double>(end - begin);
            return TimelineRenderer::kLabelWidth + static_cast<int>(mapping.mapTimeToX(t));
        };
        // Outside the activations' window only the weights, at the bottom; inside it the
        // activations stacked on them, aligned with the time axis the timeline uses.
        QCOMPARE(image.pixelColor(x_at(0.2), bottom - 2), weights);
        QCOMPARE(image.pixelColor(x_at(0.5), bottom - 2), weights);
        const int above_weights = bottom - (track_h - 14) / 4 - 4;  // 1 MiB of 4.4 MiB is a quarter
        QCOMPARE(image.pixelColor(x_at(0.5), above_weights), activations);
        QVERIFY(image.pixelColor(x_at(0.2), above_weights) != activations);
        QVERIFY(image.pixelColor(x_at(0.40), above_weights) != activations);
        QVERIFY(image.pixelColor(x_at(0.60), above_weights) != activations);
    }

    void aShortPeakShowsWhenZoomedOut() {
        // A peak far shorter than a pixel: the bucket shows it, and never more than the total.
        reports::MemoryStack stack;
        stack.classes = {"weights", "activations"};
        stack.t_ns = {0, 1000, 1010, 5000};
        stack.bytes = {{10, 10, 10, 10}, {0, 50, 0, 0}};
        stack.peak_total = 60;
        QCOMPARE(MemoryLane::bucketState(stack, 0, 2000), std::ptrdiff_t(1));
        QCOMPARE(MemoryLane::bucketState(stack, 2000, 4000), std::ptrdiff_t(2));  // in effect
        QCOMPARE(MemoryLane::bucketState(stack, -100, -10), std::ptrdiff_t(-1));
    }
};

QTEST_MAIN(TestMemoryLane)
#include "tst_memory_lane.moc"
