#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gui/kernels/KernelStats.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "reports/roofline/Roofline.hpp"

namespace trainscope::gui {

// A run's trace, indexed for the views, with its kernel statistics.
struct LoadedTrace {
    QString path;
    std::int64_t run_id = 0;
    std::shared_ptr<const TimelineData> timeline;
    std::vector<KernelStat> kernel_stats;
    std::int64_t steps = 0;  // profiler::count_training_steps
    // The ops on the roofline (reports::op_roofline) under the run's roofs.
    std::vector<reports::OpRooflineRow> roofline;
    reports::Roofs roofs;
    // The loader held the whole trace's records while it indexed them: a trace it could not
    // index row by row as it read them (see TraceLoader::loadNow).
    bool read_whole = false;
    // How many times the run's rows were read: 2 when a stream of them met what only the
    // whole trace can index and the run was read again, whole.
    int row_passes = 1;
};
using LoadedTracePtr = std::shared_ptr<const LoadedTrace>;

// The run exists and ran, but recorded no trace (--trace off): not a fault of the file,
// so the window says so quietly instead of in an error box.
class NoTraceError : public std::runtime_error {
  public:
    explicit NoTraceError(std::int64_t run_id);
    [[nodiscard]] std::int64_t runId() const { return run_id_; }

  private:
    std::int64_t run_id_;
};

// Loads and indexes a run's trace off the GUI thread, one std::thread per job. One job at
// a time: starting another or cancel() raises the running job's stop flag; a stopped job
// emits nothing. The flag is read between chunks of the SQLite read and interrupts a long
// SQLite step, so destroying a loader mid-load returns promptly. Signals arrive queued
// on the loader's thread (progress runs on the loading thread with a direct connection).
// Not QtConcurrent: its pool hands jobs over under Qt's own futex mutex, which
// ThreadSanitizer cannot see in the uninstrumented Qt, so every job would read as a race;
// thread start and join are what TSan sees (docs/sanitizers.md).
class TraceLoader : public QObject {
    Q_OBJECT
  public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    void start(const QString& database_path, std::int64_t run_id);
    void cancel();
    [[nodiscard]] bool isRunning() const;

    // The same work on the calling thread. Throws reports::StoreError (no such run, a
    // damaged trace), reports::SqliteError (an unreadable file) and NoTraceError (a run
    // without a trace); returns nullptr when stopped. `preview`, when given, receives the
    // trace's outline before the activities are read (a run stored with summaries only):
    // a LoadedTrace whose timeline is TimelineData::buildOutline's, nothing else filled.
    // A run stored with its summaries is read row by row into the timeline's compact
    // events (TimelineStream) and the run-wide figures are made as the rows pass, so its
    // records are never all in memory; a run without summaries, with rows out of order or
    // not contiguous, a CPU-backend run or one whose ops carry FLOPs (the roofline joins
    // them to their kernels over the whole trace) is read whole (LoadedTrace::read_whole).
    // Whether a run is a CPU-backend run or its ops may carry FLOPs is decided from its
    // header before its rows are read, so that such a run is read once; only what the header
    // cannot tell is found by the stream, and the run then read again (row_passes).
    static LoadedTracePtr loadNow(const QString& database_path, std::int64_t run_id,
                                  const std::atomic<bool>* stop = nullptr,
                                  const std::function<void(int)>& progress = {},
                                  const std::function<void(LoadedTracePtr)>& preview = {});

  signals:
    void progress(int percent);
    // The first frame's data while the events load (loadNow's preview); ready follows.
    void preview(trainscope::gui::LoadedTracePtr outline);
    void ready(trainscope::gui::LoadedTracePtr trace);
    // The file could not give the trace (its message names the file), or, marked as
    // such, an internal error of the GUI.
    void failed(const QString& message);
    // The run has no trace (NoTraceError).
    void noTrace(qint64 run_id);
    void cancelled();

  private:
    struct Job {
        std::shared_ptr<std::atomic<bool>> stop;
        std::shared_ptr<std::atomic<bool>> finished;
        std::thread thread;
    };
    void joinFinishedJobs();
    // A failure goes to the GUI thread as plain text, and its QString is made there: one
    // made on the loading thread and released last inside Qt Widgets is freed behind an
    // atomic reference count whose GUI-thread half runs in the uninstrumented Qt, so TSan
    // reported it (and tests/tsan/qt.supp needed QArrayData::deref, which would hide any
    // QString race of ours). Emitted there unless the job was stopped meanwhile.
    void postFailure(std::string message, const std::shared_ptr<std::atomic<bool>>& stop);

    // Every job not yet joined, the newest last: a replaced job still holds `this` until
    // it returns (it may have read its stop flag just before start() raised it), so the
    // destructor joins all of them, not only the newest.
    std::vector<Job> jobs_;
};

}  // namespace trainscope::gui

Q_DECLARE_METATYPE(trainscope::gui::LoadedTracePtr)
