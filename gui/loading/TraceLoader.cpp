#include "gui/loading/TraceLoader.hpp"

#include <QtConcurrent/QtConcurrentRun>
#include <stdexcept>

#include "profiler/analysis/TrainingSteps.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::gui {

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<LoadedTracePtr>("trainscope::gui::LoadedTracePtr");
}

TraceLoader::~TraceLoader() {
    cancel();
    future_.waitForFinished();
}

bool TraceLoader::isRunning() const {
    return future_.isRunning();
}

void TraceLoader::cancel() {
    if (!stop_)
        return;
    const bool was_stopped = stop_->exchange(true);
    if (!was_stopped && future_.isRunning())
        emit cancelled();  // only a job that was still working is "cancelled"
}

LoadedTracePtr TraceLoader::loadNow(const QString& database_path, std::int64_t run_id,
                                    const std::atomic<bool>* stop,
                                    const std::function<void(int)>& progress) {
    if (progress)
        progress(2);
    reports::ResultsDatabase db(database_path.toStdString(), reports::OpenMode::ReadOnly);
    auto trace = reports::load_trace(db, run_id);
    if (!trace)
        throw std::runtime_error("run " + std::to_string(run_id) + " has no trace");
    if (stop != nullptr && stop->load())
        return nullptr;
    if (progress)
        progress(30);
    auto out = std::make_shared<LoadedTrace>();
    out->path = database_path;
    out->run_id = run_id;
    out->timeline = TimelineData::build(std::move(*trace), stop, [&](int p) {
        if (progress)
            progress(30 + p * 60 / 100);
    });
    if (!out->timeline)
        return nullptr;
    out->kernel_stats = computeKernelStats(*out->timeline);
    out->steps = profiler::count_training_steps(out->timeline->trace());
    if (out->steps > 0) {
        const profiler::TimeWindow span = profiler::training_steps_span(out->timeline->trace());
        out->step_kernel_stats = computeKernelStats(
            *out->timeline, static_cast<double>(span.begin_ns), static_cast<double>(span.end_ns));
    }
    if (progress)
        progress(100);
    return out;
}

void TraceLoader::start(const QString& database_path, std::int64_t run_id) {
    if (stop_)
        stop_->store(true);  // the old job finishes quietly
    auto stop = std::make_shared<std::atomic<bool>>(false);
    stop_ = stop;
    future_ = QtConcurrent::run([this, stop, database_path, run_id] {
        try {
            auto result = loadNow(database_path, run_id, stop.get(), [this, stop](int p) {
                if (!stop->load())
                    emit progress(p);
            });
            if (result && !stop->load())
                emit ready(result);
        } catch (const std::exception& e) {
            if (!stop->load())
                emit failed(QString::fromStdString(e.what()));
        }
    });
}

}  // namespace trainscope::gui
