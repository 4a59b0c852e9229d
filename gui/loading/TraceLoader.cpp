#include "gui/loading/TraceLoader.hpp"

#include <filesystem>
#include <string>
#include <utility>

#include "gui/common/FileErrors.hpp"
#include "gui/timeline/TimelineStream.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/KernelBreakdownAnalysis.hpp"
#include "profiler/analysis/OpWork.hpp"
#include "profiler/analysis/TrainingSteps.hpp"
#include "reports/store/ActivityReader.hpp"
#include "reports/store/LaneSummaryStore.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceOutline.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::gui {

namespace {

QString internal_error_message(std::int64_t run_id, const char* what) {
    return QStringLiteral(
               "Internal error while loading the trace of run %1 (a bug in trainscope-gui, not "
               "a fault of the file; please report it): %2")
        .arg(run_id)
        .arg(QString::fromUtf8(what));
}

// The run-wide figures made as the rows pass, by the implementations the whole trace's
// figures come from: the kernel table's breakdown, and the training steps (counted over
// the step ranges, the only activities count_training_steps looks at).
class RunFigures {
  public:
    explicit RunFigures(const profiler::Trace& header) {
        steps_.strings = header.strings;
        steps_.lanes = header.lanes;
        step_name_.assign(steps_.strings.size(), -1);
    }
    RunFigures(const RunFigures&) = delete;
    RunFigures& operator=(const RunFigures&) = delete;

    void add(const profiler::Activity& a, std::size_t index) {
        // Not a host-op trace (TimelineStream tells, and the loader reads such a trace
        // whole): the device's work is kernels, copies and sets, counted by duration.
        if (profiler::is_device_work(a.kind, false))
            kernels_.add(a, index, a.duration_ns());
        if (a.kind != profiler::ActivityKind::NvtxRange && a.kind != profiler::ActivityKind::HostOp)
            return;
        signed char& known = step_name_[a.name];
        if (known < 0)
            known = profiler::is_training_step_name(steps_.strings.at(a.name)) ? 1 : 0;
        if (known != 0)
            steps_.activities.push_back(a);
    }
    [[nodiscard]] profiler::KernelBreakdown kernels() && { return std::move(kernels_).finish(); }
    [[nodiscard]] std::int64_t steps() const { return profiler::count_training_steps(steps_); }

  private:
    profiler::Trace steps_;
    std::vector<signed char> step_name_;
    profiler::KernelBreakdownAccumulator kernels_{steps_.strings};
};

// Whether the header shows that the run's figures need its whole trace, so that it is read
// whole at once instead of streamed and then read again: an op that carries work may be
// among its rows (the roofline joins it to its kernels over the whole trace), or no GPU
// work can be (a CPU-backend run: its ops are the device's work, by self time). What the
// header cannot tell (rows out of order, an op's work or a host-op trace it did not
// foresee) the stream still finds, and the run is then read again (load_rows).
bool needs_whole_trace(const profiler::Trace& header) {
    return profiler::may_carry_op_work(header) || !profiler::may_hold_gpu_work(header);
}

// Reads the run's rows in order into the timeline's events (TimelineStream) and its
// figures. nullptr when stopped; `whole` set instead when the trace must be read whole.
LoadedTracePtr load_rows(const QString& database_path, std::int64_t run_id,
                         const reports::ResultsDatabase& db, profiler::Trace header,
                         std::shared_ptr<const reports::ActivityReader> reader,
                         std::vector<profiler::RowSummaryLevel> summaries,
                         const std::atomic<bool>* stop, const std::function<void(int)>& progress,
                         bool& whole) {
    const std::size_t n = reader->size();
    RunFigures figures(header);
    TimelineStream stream(std::move(header), n, std::move(summaries));
    // In order, decoded beside this thread (scan_activities), each row checked against the
    // header; the stop flag ends the read between chunks and interrupts SQLite.
    reports::TraceLoadControl control;
    control.stop = stop;
    if (progress)
        control.progress = [&progress](double share) {
            progress(2 + static_cast<int>(share * 88));
        };
    try {
        reports::scan_activities(
            db, run_id, stream.header(),
            [&](const profiler::Activity& a, std::size_t index) {
                // An op's work joins its kernels over the whole trace (the roofline): a run
                // whose header did not say so (needs_whole_trace) is read again, whole.
                if (profiler::carries_op_work(a) || !stream.add(a)) {
                    whole = true;
                    return false;
                }
                figures.add(a, index);
                return true;
            },
            reports::ActivityColumns::all, control);
    } catch (const reports::TraceLoadStopped&) {
        return nullptr;
    }
    if (whole)
        return nullptr;
    if (stream.hostOpTrace()) {
        whole = true;
        return nullptr;
    }
    if (stop != nullptr && stop->load())
        return nullptr;  // before the last step's seconds on a huge run
    std::shared_ptr<TimelineData> timeline = stream.finish();
    if (!timeline) {
        whole = true;
        return nullptr;
    }
    auto out = std::make_shared<LoadedTrace>();
    out->path = database_path;
    out->run_id = run_id;
    out->kernel_stats = kernelStatsOf(*timeline, std::move(figures).kernels());
    out->steps = figures.steps();
    out->roofs = reports::roofs_of(
        reports::load_run(db, run_id, reports::RunParts{true, false, false, false, false}).metrics);
    // No op carries work (else the trace was read whole): the roofline of the whole trace
    // is that of one without activities.
    out->roofline = reports::op_roofline(profiler::Trace{}, out->roofs);
    if (!timeline->keepDetailsIn(std::move(reader)))
        throw std::logic_error("a timeline built from the stored rows refused them");
    out->timeline = std::move(timeline);
    if (progress)
        progress(100);
    return out;
}

}  // namespace

NoTraceError::NoTraceError(std::int64_t run_id)
    : std::runtime_error("run " + std::to_string(run_id) + " has no trace"), run_id_(run_id) {}

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<LoadedTracePtr>("trainscope::gui::LoadedTracePtr");
}

TraceLoader::~TraceLoader() {
    cancel();
    for (auto& job : jobs_)
        job.thread.join();
}

bool TraceLoader::isRunning() const {
    return !jobs_.empty() && !jobs_.back().finished->load();
}

void TraceLoader::cancel() {
    if (jobs_.empty())
        return;
    const Job& newest = jobs_.back();
    const bool was_stopped = newest.stop->exchange(true);
    if (!was_stopped && !newest.finished->load())
        emit cancelled();  // only a job that was still working is "cancelled"
}

void TraceLoader::joinFinishedJobs() {
    std::erase_if(jobs_, [](Job& job) {
        if (!job.finished->load())
            return false;
        job.thread.join();  // returns at once: the job has left its body
        return true;
    });
}

LoadedTracePtr TraceLoader::loadNow(const QString& database_path, std::int64_t run_id,
                                    const std::atomic<bool>* stop,
                                    const std::function<void(int)>& progress,
                                    const std::function<void(LoadedTracePtr)>& preview) {
    if (progress)
        progress(2);
    reports::ResultsDatabase db(database_path.toStdString(), reports::OpenMode::ReadOnly);
    // Stored with the trace when it was written (older files: made by build). Read first:
    // with the lanes and names they paint the whole run before its activities are read.
    auto summaries = reports::load_lane_summaries(db, run_id);
    if (stop != nullptr && stop->load())
        return nullptr;
    if (preview && summaries && !summaries->empty()) {
        if (auto outline = reports::load_trace_outline(db, run_id)) {
            auto early = std::make_shared<LoadedTrace>();
            early->path = database_path;
            early->run_id = run_id;
            early->timeline = TimelineData::buildOutline(std::move(*outline), *summaries);
            if (stop != nullptr && stop->load())
                return nullptr;
            preview(early);
        }
    }
    int row_passes = 1;
    if (summaries) {
        std::optional<profiler::Trace> header;
        try {
            reports::TraceLoadControl control;
            control.stop = stop;
            header = reports::load_trace_header(db, run_id, control);
        } catch (const reports::TraceLoadStopped&) {
            return nullptr;
        }
        std::shared_ptr<const reports::ActivityReader> reader;
        try {
            // Without a header the whole read below says why there is none.
            if (header && !needs_whole_trace(*header))
                reader = std::make_shared<const reports::ActivityReader>(
                    std::filesystem::path(database_path.toStdString()), run_id);
        } catch (const reports::StoreError&) {
            // Rows that cannot be read by index (not contiguous): read whole below.
        } catch (const reports::SqliteError&) {
            // The file cannot be opened a second time now: read whole below.
        }
        if (reader) {
            bool whole = false;
            auto out = load_rows(database_path, run_id, db, std::move(*header), std::move(reader),
                                 std::move(*summaries), stop, progress, whole);
            if (!whole)
                return out;                                        // nullptr when stopped
            summaries = reports::load_lane_summaries(db, run_id);  // the stream used them up
            row_passes = 2;
        }
    }
    std::optional<profiler::Trace> trace;
    try {
        reports::TraceLoadControl control;
        control.stop = stop;
        if (progress)
            control.progress = [&progress](double share) {
                progress(2 + static_cast<int>(share * 28));
            };
        trace = reports::load_trace(db, run_id, control);
    } catch (const reports::TraceLoadStopped&) {
        return nullptr;
    }
    if (!trace) {
        (void)reports::load_run(db, run_id, reports::RunParts{false, false, false, false, false});
        throw NoTraceError(run_id);  // the run exists (load_run throws StoreError otherwise)
    }
    if (stop != nullptr && stop->load())
        return nullptr;
    if (progress)
        progress(30);
    auto out = std::make_shared<LoadedTrace>();
    out->path = database_path;
    out->run_id = run_id;
    out->read_whole = true;
    out->row_passes = row_passes;
    std::shared_ptr<TimelineData> timeline = TimelineData::build(
        std::move(*trace), stop,
        [&](int p) {
            if (progress)
                progress(30 + p * 60 / 100);
        },
        std::move(summaries));
    if (!timeline)
        return nullptr;
    // The whole run's figures while the records are in memory; then they go, and the
    // views read what they need of them from the file (details, windows, the diff).
    out->kernel_stats = computeKernelStats(*timeline);
    out->steps = profiler::count_training_steps(timeline->trace());
    out->roofs = reports::roofs_of(
        reports::load_run(db, run_id, reports::RunParts{true, false, false, false, false}).metrics);
    out->roofline = reports::op_roofline(timeline->trace(), out->roofs);
    try {
        (void)timeline->keepDetailsIn(std::make_shared<const reports::ActivityReader>(
            std::filesystem::path(database_path.toStdString()), run_id));
    } catch (const reports::StoreError&) {
        // Rows that cannot be read by index (not contiguous): the records stay in memory.
    } catch (const reports::SqliteError&) {
        // The file cannot be opened a second time now: the loaded records serve instead.
    }
    out->timeline = std::move(timeline);
    if (progress)
        progress(100);
    return out;
}

void TraceLoader::postFailure(std::string message, const std::shared_ptr<std::atomic<bool>>& stop) {
    QMetaObject::invokeMethod(
        this,
        [this, message = std::move(message), stop] {
            if (!stop->load())
                emit failed(QString::fromStdString(message));
        },
        Qt::QueuedConnection);
}

void TraceLoader::start(const QString& database_path, std::int64_t run_id) {
    if (!jobs_.empty())
        jobs_.back().stop->store(true);  // the old job finishes quietly
    joinFinishedJobs();
    auto stop = std::make_shared<std::atomic<bool>>(false);
    auto finished = std::make_shared<std::atomic<bool>>(false);
    auto body = [this, stop, database_path, run_id] {
        LoadedTracePtr result;
        std::optional<QString> error;
        try {
            error = fileErrorOf([&] {
                result = loadNow(
                    database_path, run_id, stop.get(),
                    [this, stop](int p) {
                        if (!stop->load())
                            emit progress(p);
                    },
                    [this, stop](LoadedTracePtr outline) {
                        if (!stop->load())
                            emit preview(std::move(outline));
                    });
            });
        } catch (const NoTraceError& e) {
            if (!stop->load())
                emit noTrace(e.runId());
            return;
        } catch (const std::exception& e) {
            // A bug, not the file: said as such (an exception leaving the thread would end
            // the program, and the progress bar would otherwise wait forever).
            if (!stop->load())
                postFailure(internal_error_message(run_id, e.what()).toStdString(), stop);
            return;
        }
        if (stop->load())
            return;
        if (error)
            postFailure(error->toStdString(), stop);
        else if (result)
            emit ready(result);
    };
    std::thread thread([body = std::move(body), finished] {
        body();
        finished->store(true);
    });
    jobs_.push_back(Job{std::move(stop), std::move(finished), std::move(thread)});
}

}  // namespace trainscope::gui
