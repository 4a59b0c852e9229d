// The loader's ways around the stream (TraceLoader::loadNow): a run whose header says that
// only its whole trace can be indexed (a CPU-backend run, ops carrying FLOPs) is read whole
// once; what the header could not foresee (rows out of stored order, an op's FLOPs, a
// host-op trace) is found by the stream and the run read again, whole; a row that names a
// missing name or lane is a damaged file. Each answer is the one of the whole trace.
#include <QTemporaryDir>
#include <QTest>
#include <functional>
#include <string>

#include "gui/kernels/KernelStats.hpp"
#include "gui/loading/TraceLoader.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "profiler/analysis/OpWork.hpp"
#include "profiler/trace/TraceNesting.hpp"
#include "reports/roofline/Roofline.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceStore.hpp"
#include "tests/gui/CpuTraceGenerator.hpp"
#include "tests/gui/TraceDbGenerator.hpp"

using namespace trainscope;
using namespace trainscope::gui;

namespace {

// Run `run` of `from` with its trace edited, written alone into `to`; its id there.
std::int64_t rewrite(const std::string& from, std::int64_t run, const std::string& to,
                     const std::function<void(profiler::Trace&)>& edit) {
    reports::RunRecord record;
    {
        const reports::ResultsDatabase db(from, reports::OpenMode::ReadOnly);
        record = reports::load_run(db, run, reports::RunParts{true, true, true, true, true});
    }
    record.matrix_id.reset();
    edit(*record.trace);
    testing::removeDatabase(to);
    reports::ResultsDatabase db(to, reports::OpenMode::CreateOrOpen);
    return reports::RunWriter(db).write(record);
}

// The timeline and figures of the whole trace, as the loader makes them when it reads it.
struct InMemory {
    std::shared_ptr<TimelineData> timeline;
    profiler::Trace trace;
};
InMemory inMemory(const std::string& path, std::int64_t run) {
    const reports::ResultsDatabase db(path, reports::OpenMode::ReadOnly);
    auto whole = reports::load_trace(db, run);
    InMemory m;
    m.trace = *whole;
    m.timeline = TimelineData::build(std::move(*whole));
    return m;
}

void compareTimelines(const TimelineData& got, const TimelineData& want) {
    QCOMPARE(got.activityCount(), want.activityCount());
    QCOMPARE(got.rows().size(), want.rows().size());
    for (std::size_t r = 0; r < got.rows().size(); ++r)
        QCOMPARE(got.rows()[r].events.size(), want.rows()[r].events.size());
    for (std::uint32_t i = 0; i < got.activityCount(); ++i) {
        QCOMPARE(got.rowOf(i), want.rowOf(i));
        QCOMPARE(got.category(i), want.category(i));
    }
    QCOMPARE(got.hostOpTrace(), want.hostOpTrace());
    QCOMPARE(got.beginNs(), want.beginNs());
    QCOMPARE(got.endNs(), want.endNs());
}

void compareStats(const std::vector<KernelStat>& got, const std::vector<KernelStat>& want) {
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].name, want[i].name);
        QCOMPARE(got[i].count, want[i].count);
        QCOMPARE(got[i].total_ns, want[i].total_ns);
    }
}

void compareRoofline(const std::vector<reports::OpRooflineRow>& got,
                     const std::vector<reports::OpRooflineRow>& want) {
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].name, want[i].name);
        QCOMPARE(got[i].count, want[i].count);
        QCOMPARE(got[i].flops, want[i].flops);
        QCOMPARE(got[i].bytes, want[i].bytes);
        QCOMPARE(got[i].device_ns, want[i].device_ns);
    }
}

// Every 4th correlated API call of the main thread becomes the launch of an op that
// carries work (as the host tracer records a CUDA run's ops), with or without the host
// tracer's mark in the header.
void addOpsWithWork(profiler::Trace& t, bool marked) {
    const profiler::StringId conv = t.strings.intern("conv2d");
    std::vector<profiler::Activity> ops;
    int calls = 0;
    for (const profiler::Activity& a : t.activities) {
        if (a.kind != profiler::ActivityKind::RuntimeApi || a.correlation == 0 || ++calls % 4)
            continue;
        profiler::Activity op;
        op.kind = profiler::ActivityKind::HostOp;
        op.lane = a.lane;
        op.start_ns = a.start_ns;
        op.end_ns = a.end_ns + 1;
        op.name = conv;
        op.flops = 2.0e9F;
        op.bytes = 4 << 20;
        ops.push_back(op);
    }
    QVERIFY(ops.size() > 100);
    t.activities.insert(t.activities.end(), ops.begin(), ops.end());
    t.sort();
    profiler::assign_nesting_depths(t);
    if (marked)
        t.metadata[profiler::kHostTracerMetadataKey] = "attached";
    else
        t.metadata.erase(profiler::kHostTracerMetadataKey);
}

}  // namespace

class TestLoaderFallbacks : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        gpu_ = path("gpu.db");
        gpu_run_ = testing::writeDatabase(gpu_, {6000, 0, 7});
        cpu_ = path("cpu.db");
        cpu_run_ = testing::writeCpuDatabase(cpu_, 6).first;
    }

    // The plain case, for contrast: streamed once, never read whole.
    void aGpuRunIsStreamedOnce() {
        const auto loaded = TraceLoader::loadNow(QString::fromStdString(gpu_), gpu_run_);
        QVERIFY(loaded != nullptr);
        QVERIFY(!loaded->read_whole);
        QCOMPARE(loaded->row_passes, 1);
    }

    // Rows stored out of Trace::sort's order cannot be streamed into the rows: the stream
    // stops at the first and the run is read again whole, with the same answers.
    void rowsOutOfStoredOrderAreReadWhole() {
        const std::string file = path("disorder.db");
        const std::int64_t run = rewrite(gpu_, gpu_run_, file, [](profiler::Trace&) {});
        {
            reports::ResultsDatabase db(file, reports::OpenMode::CreateOrOpen);
            auto info = db.prepare("SELECT first_activity FROM trace_info WHERE run_id = ?1");
            info.bind(1, run);
            QVERIFY(info.step());
            const std::int64_t first = info.column_int64(0);
            // The run's first row moved after its lane's second (same lane: a stream's rows).
            db.prepare(
                  "UPDATE activities SET (start_ns, end_ns) = (SELECT start_ns + 1, end_ns + 1 "
                  "FROM activities WHERE rowid = ?2) WHERE rowid = ?2 - 1")
                .bind(2, first + 1)
                .run();
        }
        const auto loaded = TraceLoader::loadNow(QString::fromStdString(file), run);
        QVERIFY(loaded != nullptr);
        QVERIFY(loaded->read_whole);
        QCOMPARE(loaded->row_passes, 2);
        const InMemory m = inMemory(file, run);
        compareTimelines(*loaded->timeline, *m.timeline);
        compareStats(loaded->kernel_stats, computeKernelStats(*m.timeline));
    }

    // A CUDA run's ops carry FLOPs (the roofline joins them to their kernels over the
    // whole trace): its header has the host tracer's mark, so it is read whole once.
    void opsWithWorkForeseenAreReadWholeOnce() {
        const std::string file = path("ops-marked.db");
        const std::int64_t run =
            rewrite(gpu_, gpu_run_, file, [](profiler::Trace& t) { addOpsWithWork(t, true); });
        const auto loaded = TraceLoader::loadNow(QString::fromStdString(file), run);
        QVERIFY(loaded != nullptr);
        QVERIFY(loaded->read_whole);
        QCOMPARE(loaded->row_passes, 1);
        const InMemory m = inMemory(file, run);
        QVERIFY(!loaded->roofline.empty());
        compareRoofline(loaded->roofline, reports::op_roofline(m.trace, loaded->roofs));
        compareTimelines(*loaded->timeline, *m.timeline);
    }

    // The same ops in a trace without the mark: the stream meets the first and the run is
    // read again whole; the roofline is the whole trace's, not an empty one.
    void opsWithWorkUnforeseenAreReadAgainWhole() {
        const std::string file = path("ops-unmarked.db");
        const std::int64_t run =
            rewrite(gpu_, gpu_run_, file, [](profiler::Trace& t) { addOpsWithWork(t, false); });
        const auto loaded = TraceLoader::loadNow(QString::fromStdString(file), run);
        QVERIFY(loaded != nullptr);
        QVERIFY(loaded->read_whole);
        QCOMPARE(loaded->row_passes, 2);
        const InMemory m = inMemory(file, run);
        QVERIFY(!loaded->roofline.empty());
        compareRoofline(loaded->roofline, reports::op_roofline(m.trace, loaded->roofs));
    }

    // A CPU-backend run (no GPU stream lane: its ops are the device's work) is read whole
    // once; the kernel table holds its ops by self time, as in memory.
    void cpuRunIsReadWholeOnce() {
        const auto loaded = TraceLoader::loadNow(QString::fromStdString(cpu_), cpu_run_);
        QVERIFY(loaded != nullptr);
        QVERIFY(loaded->read_whole);
        QCOMPARE(loaded->row_passes, 1);
        QVERIFY(loaded->timeline->hostOpTrace());
        const InMemory m = inMemory(cpu_, cpu_run_);
        compareTimelines(*loaded->timeline, *m.timeline);
        compareStats(loaded->kernel_stats, computeKernelStats(*m.timeline));
    }

    // A host-op trace whose header has a GPU stream lane (empty) and no host tracer's mark:
    // only the end of the stream shows that no GPU work passed, and the run is read again
    // whole, a host-op trace with its ops in the kernel table.
    void hostOpTraceUnforeseenIsReadAgainWhole() {
        const std::string file = path("cpu-unmarked.db");
        const std::int64_t run = rewrite(cpu_, cpu_run_, file, [](profiler::Trace& t) {
            t.metadata.erase(profiler::kHostTracerMetadataKey);
            t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 1, "GPU 0 · stream 7"});
        });
        const auto loaded = TraceLoader::loadNow(QString::fromStdString(file), run);
        QVERIFY(loaded != nullptr);
        QVERIFY(loaded->read_whole);
        QCOMPARE(loaded->row_passes, 2);
        QVERIFY(loaded->timeline->hostOpTrace());
        const InMemory m = inMemory(file, run);
        compareTimelines(*loaded->timeline, *m.timeline);
        QVERIFY(!loaded->kernel_stats.empty());
        compareStats(loaded->kernel_stats, computeKernelStats(*m.timeline));
    }

    // A row naming a name or a lane the trace does not have: the file is damaged, said with
    // the run and the file, whether the bad row comes first or last.
    void aRowWithAMissingNameOrLaneIsADamagedFile() {
        for (const char* edit : {"UPDATE activities SET name_id = 1000000 WHERE rowid = "
                                 "(SELECT first_activity FROM trace_info WHERE run_id = ?1)",
                                 "UPDATE activities SET lane = 1000000 WHERE rowid = "
                                 "(SELECT last_activity FROM trace_info WHERE run_id = ?1)"}) {
            const std::string file = path("damaged.db");
            const std::int64_t run = rewrite(gpu_, gpu_run_, file, [](profiler::Trace&) {});
            {
                reports::ResultsDatabase db(file, reports::OpenMode::CreateOrOpen);
                db.prepare(edit).bind(1, run).run();
            }
            QString message;
            try {
                (void)TraceLoader::loadNow(QString::fromStdString(file), run);
            } catch (const reports::StoreError& e) {
                message = QString::fromUtf8(e.what());
            }
            QVERIFY2(message.contains(QStringLiteral("refers to a missing name or lane; the "
                                                     "file is damaged")),
                     qPrintable(message));
            QVERIFY(message.contains(QString::fromStdString(file)));
            QVERIFY(message.contains(QStringLiteral("run %1").arg(run)));
        }
    }

  private:
    std::string path(const char* name) const {
        return dir_.filePath(QString::fromUtf8(name)).toStdString();
    }

    QTemporaryDir dir_;
    std::string gpu_;
    std::int64_t gpu_run_ = 0;
    std::string cpu_;
    std::int64_t cpu_run_ = 0;
};

QTEST_MAIN(TestLoaderFallbacks)
#include "tst_loader_fallbacks.moc"
