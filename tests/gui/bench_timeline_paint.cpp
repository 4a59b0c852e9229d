// Paint time of the timeline on an offscreen 1920x1080 QImage with a 1,000,000-kernel
// trace, at several zoom levels. Target: < 16 ms per full repaint.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <memory>
#include <vector>

#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "tests/gui/TraceDbGenerator.hpp"

namespace {

using trainscope::gui::DrawItem;
using trainscope::gui::TimeAxisMapping;
using trainscope::gui::TimelineData;
using trainscope::gui::TimelineRenderer;
using trainscope::gui::TimelineViewState;

const TimelineData& data() {
    static const std::shared_ptr<const TimelineData> d =
        TimelineData::build(trainscope::gui::testing::makeTrace({1'000'000, 1.0, 7}));
    return *d;
}

// Paints the timeline showing `fraction` of the trace, centred.
void paint_at(benchmark::State& state, double fraction) {
    const TimelineData& d = data();
    const QSize size(1920, 1080);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    const double begin = static_cast<double>(d.beginNs());
    const double span = static_cast<double>(d.endNs() - d.beginNs());
    const double mid = begin + span / 2;
    TimelineViewState s;
    s.mapping = TimeAxisMapping::fit(mid - span * fraction / 2, mid + span * fraction / 2,
                                     TimelineRenderer::dataWidth(size.width()));
    std::vector<DrawItem> list;
    list.reserve(1 << 16);
    for (auto _ : state) {
        QPainter p(&image);
        TimelineRenderer::paint(p, d, s, size, list);
        p.end();
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["draw_items"] = static_cast<double>(list.size());
    state.counters["kernels"] = static_cast<double>(d.kernelCount());
}

void BM_TimelinePaint_Whole(benchmark::State& state) {
    paint_at(state, 1.0);
}
void BM_TimelinePaint_10pct(benchmark::State& state) {
    paint_at(state, 0.1);
}
void BM_TimelinePaint_1pct(benchmark::State& state) {
    paint_at(state, 0.01);
}
void BM_TimelinePaint_0_1pct(benchmark::State& state) {
    paint_at(state, 0.001);
}
void BM_TimelinePaint_0_01pct(benchmark::State& state) {
    paint_at(state, 0.0001);
}

// The draw list alone (no rasterisation): the part that depends on the trace size.
void BM_TimelineDrawList_Whole(benchmark::State& state) {
    const TimelineData& d = data();
    TimelineViewState s;
    s.mapping = TimeAxisMapping::fit(static_cast<double>(d.beginNs()),
                                     static_cast<double>(d.endNs()), 1710);
    std::vector<DrawItem> list;
    for (auto _ : state) {
        TimelineRenderer::buildDrawList(d, s, QSize(1920, 1080), list);
        benchmark::DoNotOptimize(list.data());
    }
    state.counters["draw_items"] = static_cast<double>(list.size());
}

// Indexing a loaded trace (sort, rows, correlation maps, busy intervals): load cost.
void BM_TimelineDataBuild(benchmark::State& state) {
    const auto trace = trainscope::gui::testing::makeTrace({1'000'000, 1.0, 7});
    for (auto _ : state) {
        auto copy = trace;
        auto d = TimelineData::build(std::move(copy));
        benchmark::DoNotOptimize(d.get());
    }
}

BENCHMARK(BM_TimelinePaint_Whole)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimelinePaint_10pct)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimelinePaint_1pct)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimelinePaint_0_1pct)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimelinePaint_0_01pct)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimelineDrawList_Whole)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TimelineDataBuild)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);  // fonts for the labels
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    data();  // build the trace outside the timings
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
