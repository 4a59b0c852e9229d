// The timeline's compact events and its first frame from the stored summaries (issue 19):
// every TimelineEvent says what the database says of its activity, and the outline frame
// painted before the events arrive counts what the full frame counts.
#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "gui/loading/TraceLoader.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/TraceStore.hpp"
#include "tests/gui/TraceDbGenerator.hpp"

using namespace trainscope;
using namespace trainscope::gui;

// The budget of a held event: the name and category share a word.
static_assert(sizeof(TimelineEvent) == 24);

namespace {

unsigned countOf(const std::vector<DrawItem>& items) {
    return std::accumulate(items.begin(), items.end(), 0U,
                           [](unsigned s, const DrawItem& i) { return s + i.count; });
}

struct Loaded {
    LoadedTracePtr outline;
    LoadedTracePtr full;
};

Loaded loadWithOutline(const std::string& path, std::int64_t run) {
    Loaded out;
    out.full = TraceLoader::loadNow(QString::fromStdString(path), run, nullptr, {},
                                    [&](LoadedTracePtr o) { out.outline = std::move(o); });
    return out;
}

}  // namespace

class TestTimelineOutline : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        path_ = dir_.filePath(QStringLiteral("r.db")).toStdString();
        run_ = testing::writeDatabase(path_, {30000, 0, 5});
    }

    // Start, end, name and category of every painted event are its activity's in the file,
    // and it sits on the row of its lane and depth.
    void compactEventsRoundTripFromTheDatabase() {
        const auto loaded = TraceLoader::loadNow(QString::fromStdString(path_), run_);
        const TimelineData& d = *loaded->timeline;
        const reports::ResultsDatabase db(path_, reports::OpenMode::ReadOnly);
        auto stored = reports::load_trace(db, run_);
        QVERIFY(stored.has_value());
        stored->sort();  // the order TimelineData::build indexes
        QCOMPARE(d.activityCount(), stored->activities.size());
        std::size_t events = 0;
        for (std::size_t r = 0; r < d.rows().size(); ++r) {
            const TimelineRow& row = d.rows()[r];
            for (const TimelineEvent& e : row.events) {
                const profiler::Activity& a = stored->activities.at(e.activity);
                QCOMPARE(e.start, a.start_ns);
                QCOMPARE(e.end, a.end_ns);
                QCOMPARE(static_cast<profiler::StringId>(e.name), a.name);
                QCOMPARE(e.category(), classify(a.kind, stored->strings.at(a.name)));
                QCOMPARE(e.category(), d.category(e.activity));
                QCOMPARE(row.lane, a.lane);
                QCOMPARE(d.rowOf(e.activity), static_cast<int>(r));
                ++events;
            }
            // A stream never overlaps itself: its events' ends are their running maximum.
            if (row.lane_kind == profiler::LaneKind::GpuStream)
                QVERIFY(row.max_end.empty());
        }
        QCOMPARE(events, stored->activities.size());
        // Every kernel's launch is found through the launch index (the ids are the
        // stored records').
        std::size_t launches = 0;
        for (std::uint32_t i = 0; i < d.activityCount(); ++i) {
            const auto& a = stored->activities.at(i);
            if (a.kind != profiler::ActivityKind::Kernel || a.correlation == 0)
                continue;
            const auto api = d.launchOf(i);
            QVERIFY(api.has_value());
            QCOMPARE(stored->activities.at(*api).correlation, a.correlation);
            ++launches;
        }
        QVERIFY(launches > 1000);
        const auto use = d.memoryUse();
        QVERIFY(use.events < events * (sizeof(TimelineEvent) + 4));
    }

    // At the whole-trace zoom the outline paints every summarized row from its buckets:
    // the same counts as the full frame, the same folds, and no event it does not have.
    void outlineFrameShowsTheSameBucketCounts() {
        const Loaded l = loadWithOutline(path_, run_);
        QVERIFY(l.outline && l.full);
        const TimelineData& o = *l.outline->timeline;
        const TimelineData& f = *l.full->timeline;
        QVERIFY(o.partial());
        QVERIFY(!f.partial());
        QVERIFY(o.trace().activities.empty());
        QCOMPARE(o.rebasedBy(), f.rebasedBy());
        const auto m = TimeAxisMapping::fit(static_cast<double>(f.beginNs()),
                                            static_cast<double>(f.endNs()), 1700);
        Tally tally;
        compareFrames(o, f, m, true, tally);
        QVERIFY(tally.rows >= 2);
        // At each level's own scale, from the start: there kernels are wide enough to be
        // painted from the events in the full frame, one block per bucket in the outline.
        for (const double width : {1e3, 4e3, 16e3, 64e3}) {
            compareFrames(o, f, TimeAxisMapping(static_cast<double>(f.beginNs()), width, 1700),
                          false, tally);
            if (QTest::currentTestFailed())
                return;
        }
        QVERIFY(tally.wide_buckets > 0);
        // Zoomed in past the finest level, the outline paints that level, never events.
        const auto deep = TimeAxisMapping(static_cast<double>(f.beginNs()), 1.0, 1700);
        for (const TimelineRow& row : o.rows()) {
            std::vector<DrawItem> items;
            TimelineRenderer::appendRow(row, 0, deep, items);
            for (const DrawItem& item : items)
                QCOMPARE(item.kind, DrawKind::Pending);
        }
        // And it paints as a whole, its note included, without touching an event.
        QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
        QPainter p(&image);
        TimelineViewState s;
        s.mapping = m;
        std::vector<DrawItem> list;
        TimelineRenderer::paint(p, o, s, image.size(), list);
        QVERIFY(!list.empty());
    }

    // The loader hands over the outline before the trace: the first frame does not wait
    // for the activities.
    void loaderSendsTheOutlineFirst() {
        TraceLoader loader;
        std::vector<std::string> order;
        connect(&loader, &TraceLoader::preview, this, [&](const LoadedTracePtr& t) {
            order.emplace_back(t->timeline->partial() ? "outline" : "?");
        });
        connect(&loader, &TraceLoader::ready, this, [&](const LoadedTracePtr& t) {
            order.emplace_back(t->timeline->partial() ? "?" : "full");
        });
        loader.start(QString::fromStdString(path_), run_);
        QTRY_VERIFY_WITH_TIMEOUT(order.size() == 2, 30000);
        QVERIFY(order == (std::vector<std::string>{"outline", "full"}));
    }

  private:
    struct Tally {
        std::size_t rows = 0;          // rows compared
        std::size_t wide_buckets = 0;  // outline blocks the full frame paints from events
    };
    // Every summarized row of the outline against the full data's row, at mapping m: the
    // same counts, block by block: each outline block is a fold of the full frame, or the
    // items painted from the events of a bucket holding a wide one, in the same order.
    static void compareFrames(const TimelineData& o, const TimelineData& f,
                              const TimeAxisMapping& m, bool whole, Tally& tally) {
        std::map<std::pair<profiler::LaneId, int>, const TimelineRow*> full_rows;
        for (const TimelineRow& row : f.rows())
            full_rows[{row.lane, row.depth}] = &row;
        for (const TimelineRow& row : o.rows()) {
            QVERIFY(!row.events_loaded);
            if (row.lod.empty() || row.lodFor(m.nsPerPixel()) == nullptr)
                continue;
            const TimelineRow* full = full_rows.at({row.lane, row.depth});
            std::vector<DrawItem> early;
            std::vector<DrawItem> later;
            TimelineRenderer::appendRow(row, 0, m, early);
            TimelineRenderer::appendRow(*full, 0, m, later);
            QCOMPARE(countOf(early), countOf(later));
            if (whole)
                QCOMPARE(countOf(later), static_cast<unsigned>(full->events.size()));
            std::size_t j = 0;
            for (const DrawItem& block : early) {
                QCOMPARE(block.kind, DrawKind::Pending);
                QVERIFY(j < later.size());
                QCOMPARE(later[j].begin, block.begin);
                unsigned sum = 0;
                bool wide = false;
                while (j < later.size() && sum < block.count) {
                    wide = wide || (later[j].kind == DrawKind::Event &&
                                    later[j].w >= TimelineRenderer::kMinPx);
                    sum += later[j++].count;
                }
                QCOMPARE(sum, block.count);
                tally.wide_buckets += wide ? 1 : 0;
            }
            QCOMPARE(j, later.size());
            ++tally.rows;
        }
    }

    QTemporaryDir dir_;
    std::string path_;
    std::int64_t run_ = 0;
};

QTEST_MAIN(TestTimelineOutline)
#include "tst_timeline_outline.moc"
