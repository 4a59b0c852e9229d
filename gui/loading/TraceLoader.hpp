#pragma once

#include <QFuture>
#include <QObject>
#include <QString>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "gui/kernels/KernelStats.hpp"
#include "gui/timeline/TimelineData.hpp"

namespace trainscope::gui {

// A run's trace, indexed for the views, with its kernel statistics.
struct LoadedTrace {
    QString path;
    std::int64_t run_id = 0;
    std::shared_ptr<const TimelineData> timeline;
    std::vector<KernelStat> kernel_stats;
    std::int64_t steps = 0;  // profiler::count_training_steps (normalises comparisons)
    // The kernel statistics inside profiler::training_steps_span when the trace has steps
    // (what per-step figures divide by `steps`), else empty.
    std::vector<KernelStat> step_kernel_stats;
};
using LoadedTracePtr = std::shared_ptr<const LoadedTrace>;

// Loads and indexes a run's trace off the GUI thread (QtConcurrent). One job at a time:
// starting another or cancel() raises the running job's stop flag; a stopped job emits
// nothing. Signals arrive queued on the loader's thread.
class TraceLoader : public QObject {
    Q_OBJECT
  public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    void start(const QString& database_path, std::int64_t run_id);
    void cancel();
    [[nodiscard]] bool isRunning() const;

    // The same work on the calling thread. Throws (StoreError, SqliteError,
    // std::runtime_error when the run has no trace); returns nullptr when stopped.
    static LoadedTracePtr loadNow(const QString& database_path, std::int64_t run_id,
                                  const std::atomic<bool>* stop = nullptr,
                                  const std::function<void(int)>& progress = {});

  signals:
    void progress(int percent);
    void ready(trainscope::gui::LoadedTracePtr trace);
    void failed(const QString& message);
    void cancelled();

  private:
    std::shared_ptr<std::atomic<bool>> stop_;
    QFuture<void> future_;
};

}  // namespace trainscope::gui

Q_DECLARE_METATYPE(trainscope::gui::LoadedTracePtr)
