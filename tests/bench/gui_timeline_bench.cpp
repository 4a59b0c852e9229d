// Opens a run of a results database as trainscope-gui does and measures the timeline
// offscreen: time to the first frame, repaint times at several zoom levels (the median of
// --repeats paints each), a name search, and memory (resident, peak, and the timeline's
// own accounting per activity); with stored summaries also the outline's frame, painted
// before the activities are read (outline_frame_ms, from opening). One figure per line ("name
// value"), for tests/bench scripts to collect:
//   gui_timeline_bench results.db [--run ID] [--repeats N] [--search TEXT] [--size WxH]
//                      [--outline-png FILE]
//   gui_timeline_bench results.db [--run ID] --copy-to NEW.db
// --copy-to stores the run anew in NEW.db (created) as this build stores traces, with its
// level-of-detail summaries: a file imported by an older build has none. --no-lod paints
// every row from its events (no summaries), for comparison.
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gui/loading/TraceLoader.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "gui/timeline/TimelineView.hpp"
#include "profiler/analysis/LaneSummary.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/TraceStore.hpp"

namespace {

using namespace trainscope;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// CPU time of this thread: on a machine shared with builds, wall time is mostly waiting.
double thread_cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double rss_mb() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0;
    long resident = 0;
    statm >> pages >> resident;
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1048576.0;
}

double peak_rss_mb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;  // kB on Linux
}

struct Options {
    QString database;
    std::int64_t run = -1;
    int repeats = 7;
    QString search = QStringLiteral("sgemm");
    QSize size{1920, 1080};
    std::string copy_to;
    QString outline_png;  // --outline-png: the outline's frame, as painted
    bool no_lod = false;
};

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr,
                 "gui_timeline_bench: %s\nusage: gui_timeline_bench results.db [--run ID] "
                 "[--repeats N] [--search TEXT] [--size WxH] [--no-lod] [--outline-png FILE] "
                 "[--copy-to NEW.db]\n",
                 why.c_str());
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                usage(arg + " needs a value");
            return argv[++i];
        };
        try {
            if (arg == "--run")
                o.run = std::stoll(value());
            else if (arg == "--repeats")
                o.repeats = std::max(1, std::stoi(value()));
            else if (arg == "--no-lod")
                o.no_lod = true;
            else if (arg == "--copy-to")
                o.copy_to = value();
            else if (arg == "--outline-png")
                o.outline_png = QString::fromStdString(value());
            else if (arg == "--search")
                o.search = QString::fromStdString(value());
            else if (arg == "--size") {
                const std::string v = value();
                const auto x = v.find('x');
                if (x == std::string::npos)
                    usage("--size takes WxH, e.g. 1920x1080");
                o.size = QSize(std::stoi(v.substr(0, x)), std::stoi(v.substr(x + 1)));
            } else if (!arg.empty() && arg[0] == '-')
                usage("unknown option " + arg);
            else
                o.database = QString::fromStdString(arg);
        } catch (const std::logic_error&) {
            usage("bad number in " + arg);
        }
    }
    if (o.database.isEmpty())
        usage("no results database given");
    return o;
}

// The view state trainscope-gui starts with, showing `fraction` of the trace around the
// start of the median GPU activity (the middle of the trace may fall in an idle gap).
gui::TimelineViewState view_at(const gui::TimelineData& d, QSize size, double fraction) {
    gui::TimelineViewState s;
    const double begin = static_cast<double>(d.beginNs());
    const double span = static_cast<double>(d.endNs() - d.beginNs());
    const auto& work = d.gpuWorkByStart();
    const double mid = fraction >= 1.0 || work.empty()
                           ? begin + span / 2
                           : static_cast<double>(d.activity(work[work.size() / 2]).start_ns);
    s.mapping = gui::TimeAxisMapping::fit(mid - span * fraction / 2, mid + span * fraction / 2,
                                          gui::TimelineRenderer::dataWidth(size.width()));
    gui::TimelineRenderer::layoutRows(d, {}, s);
    gui::TimelineRenderer::pinRows(d, s, size.height());
    return s;
}

struct PaintTime {
    double wall_ms = 0;
    double cpu_ms = 0;
};

PaintTime paint_ms(const gui::TimelineData& d, const gui::TimelineViewState& s, QImage& image,
                   std::vector<gui::DrawItem>& list) {
    const auto t0 = Clock::now();
    const double c0 = thread_cpu_ms();
    QPainter p(&image);
    gui::TimelineRenderer::paint(p, d, s, image.size(), list);
    p.end();
    return {ms_since(t0), thread_cpu_ms() - c0};
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);  // fonts for the labels
    const Options o = parse(argc, argv);
    try {
        std::int64_t run = o.run;
        if (run < 0) {
            const reports::ResultsDatabase db(o.database.toStdString(),
                                              reports::OpenMode::ReadOnly);
            const auto ids = reports::traced_run_ids(db);
            if (ids.empty())
                usage("'" + o.database.toStdString() + "' holds no run with a trace");
            run = ids.front();
        }
        if (!o.copy_to.empty()) {
            const reports::ResultsDatabase from(o.database.toStdString(),
                                                reports::OpenMode::ReadOnly);
            reports::RunRecord record =
                reports::load_run(from, run, reports::RunParts{true, true, true, true, true});
            record.matrix_id.reset();  // the matrix is the other file's
            const reports::ResultsDatabase to(o.copy_to, reports::OpenMode::CreateOrOpen);
            const auto t0 = Clock::now();
            const auto id = reports::RunWriter(to).write(record);
            std::printf("copied_run %lld\n", static_cast<long long>(id));
            std::printf("write_ms %.1f\n", ms_since(t0));
            return 0;
        }
        const double rss_before = rss_mb();
        std::printf("rss_before_load_mb %.1f\n", rss_before);
        const auto t_open = Clock::now();
        const double c_open = thread_cpu_ms();
        gui::LoadedTracePtr loaded;
        if (o.no_lod) {
            const reports::ResultsDatabase db(o.database.toStdString(),
                                              reports::OpenMode::ReadOnly);
            auto trace = reports::load_trace(db, run);
            if (!trace)
                usage("run " + std::to_string(run) + " has no trace");
            auto plain = std::make_shared<gui::LoadedTrace>();
            plain->timeline = gui::TimelineData::build(std::move(*trace), nullptr, {},
                                                       std::vector<profiler::RowSummaryLevel>{});
            loaded = plain;
        } else {
            // The outline's frame as trainscope-gui paints it while the events load.
            QImage early(o.size, QImage::Format_ARGB32_Premultiplied);
            std::vector<gui::DrawItem> early_list;
            loaded = gui::TraceLoader::loadNow(
                o.database, run, nullptr, {}, [&](const gui::LoadedTracePtr& outline) {
                    const gui::TimelineData& od = *outline->timeline;
                    const PaintTime t = paint_ms(od, view_at(od, o.size, 1.0), early, early_list);
                    std::printf("outline_frame_ms %.1f\n", ms_since(t_open));
                    std::printf("outline_frame_cpu_ms %.1f\n", thread_cpu_ms() - c_open);
                    std::printf("outline_paint_ms %.2f\n", t.wall_ms);
                    std::printf("outline_items %zu\n", early_list.size());
                    std::printf("rss_at_outline_mb %.1f\n", rss_mb());
                    if (!o.outline_png.isEmpty() && !early.save(o.outline_png))
                        std::fprintf(stderr, "gui_timeline_bench: cannot write %s\n",
                                     o.outline_png.toStdString().c_str());
                    std::fflush(stdout);
                });
        }
        const double load_ms = ms_since(t_open);
        const double load_cpu_ms = thread_cpu_ms() - c_open;
        const gui::TimelineData& d = *loaded->timeline;
        QImage image(o.size, QImage::Format_ARGB32_Premultiplied);
        std::vector<gui::DrawItem> list;
        const double first_paint = paint_ms(d, view_at(d, o.size, 1.0), image, list).wall_ms;
        std::printf("activities %zu\n", d.activityCount());
        std::printf("load_ms %.1f\n", load_ms);
        std::printf("load_cpu_ms %.1f\n", load_cpu_ms);
        // Whether the records were all held (read whole) and how often the rows were read.
        std::printf("read_whole %d\n", loaded->read_whole ? 1 : 0);
        std::printf("row_passes %d\n", loaded->row_passes);
        std::printf("first_frame_ms %.1f\n", ms_since(t_open));
        std::printf("first_paint_ms %.2f\n", first_paint);
        std::printf("rss_after_load_mb %.1f\n", rss_mb());
        std::printf("peak_rss_after_load_mb %.1f\n", peak_rss_mb());
        const auto n = static_cast<double>(std::max<std::size_t>(d.activityCount(), 1));
        const gui::TimelineData::MemoryUse use = d.memoryUse();
        std::printf("bytes_per_activity_rss %.1f\n", (rss_mb() - rss_before) * 1048576.0 / n);
        std::printf("bytes_per_activity_held %.1f\n", static_cast<double>(use.total()) / n);
        std::printf("bytes_per_activity_activities %.1f\n",
                    static_cast<double>(use.activities) / n);
        std::printf("bytes_per_activity_events %.1f\n", static_cast<double>(use.events) / n);
        std::printf("bytes_per_activity_summaries %.1f\n", static_cast<double>(use.summaries) / n);
        std::printf("bytes_per_activity_names %.1f\n", static_cast<double>(use.names) / n);
        std::printf("bytes_per_activity_indexes %.1f\n", static_cast<double>(use.indexes) / n);
        std::printf("bytes_per_activity_busy %.1f\n", static_cast<double>(use.busy) / n);
        std::size_t lod_rows = 0;
        for (const auto& row : d.rows())
            lod_rows += row.lod.empty() ? 0 : 1;
        std::printf("rows %zu\n", d.rows().size());
        std::printf("rows_with_lod %zu\n", lod_rows);
        const struct {
            const char* name;
            double fraction;
        } zooms[] = {
            {"full", 1.0}, {"10pct", 0.1}, {"1pct", 0.01}, {"0.1pct", 0.001}, {"0.01pct", 0.0001}};
        for (const auto& z : zooms) {
            const auto s = view_at(d, o.size, z.fraction);
            std::vector<double> wall;
            std::vector<double> cpu;
            std::vector<double> list_cpu;
            for (int i = 0; i < o.repeats; ++i) {
                const PaintTime t = paint_ms(d, s, image, list);
                wall.push_back(t.wall_ms);
                cpu.push_back(t.cpu_ms);
                const double c0 = thread_cpu_ms();
                gui::TimelineRenderer::buildDrawList(d, s, o.size, list);
                list_cpu.push_back(thread_cpu_ms() - c0);
            }
            std::printf("repaint_%s_median_ms %.2f\n", z.name, median(wall));
            std::printf("repaint_%s_max_ms %.2f\n", z.name,
                        *std::max_element(wall.begin(), wall.end()));
            std::printf("repaint_%s_median_cpu_ms %.2f\n", z.name, median(cpu));
            std::printf("drawlist_%s_median_cpu_ms %.3f\n", z.name, median(list_cpu));
            std::printf("repaint_%s_items %zu\n", z.name, list.size());
        }
        // What storing the trace adds for the summaries (import, traced runs), and their size.
        const double c_sum = thread_cpu_ms();
        const auto summaries = profiler::summarize_rows(d.trace());
        std::printf("summarize_cpu_ms %.1f\n", thread_cpu_ms() - c_sum);
        std::size_t buckets = 0;
        for (const auto& level : summaries)
            buckets += level.buckets.size();
        std::printf("summary_levels %zu\n", summaries.size());
        std::printf("summary_buckets %zu\n", buckets);
        gui::TimelineView view;
        view.resize(o.size);
        view.setData(loaded->timeline);
        const auto t_search = Clock::now();
        const double c_search = thread_cpu_ms();
        view.setSearchText(o.search);
        std::printf("search_ms %.2f\n", ms_since(t_search));
        std::printf("search_cpu_ms %.2f\n", thread_cpu_ms() - c_search);
        std::printf("search_result %s\n", view.searchStatus().toStdString().c_str());
        std::printf("rss_end_mb %.1f\n", rss_mb());
        std::printf("peak_rss_mb %.1f\n", peak_rss_mb());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gui_timeline_bench: %s\n", e.what());
        return 2;
    }
    return 0;
}
