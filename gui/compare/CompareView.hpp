#pragma once

#include <QString>
#include <QWidget>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "gui/loading/TraceLoader.hpp"
#include "profiler/analysis/TraceDiff.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QTableView;

namespace trainscope::gui {

class CompareMetricsModel;
class RunsTableModel;
class TraceDiffModel;

// Two runs side by side: metrics with differences and better/worse verdicts (the
// step-time verdict is `trainscope compare`'s), a warning when a run was measured on a
// busy machine, and the kernels diff of `trainscope diff --per-step`
// (profiler::diff_traces; both traces load off the GUI thread). A run is never compared
// with itself.
class CompareView : public QWidget {
    Q_OBJECT
  public:
    CompareView(RunsTableModel* runs, QWidget* parent = nullptr);
    ~CompareView() override;
    void setDatabasePath(const QString& path) { path_ = path; }
    void setRuns(std::int64_t a, std::int64_t b);
    [[nodiscard]] QTableView* metricsTable() const { return metrics_view_; }
    // The kernels diff: profiler::diff_traces of the two runs per training step (totals
    // when a trace has no steps), the rows of `trainscope diff --per-step`.
    [[nodiscard]] QTableView* kernelTable() const { return trace_diff_view_; }
    [[nodiscard]] CompareMetricsModel* metricsModel() const { return metrics_; }
    [[nodiscard]] TraceDiffModel* traceDiffModel() const { return trace_diff_; }
    // The kernels diff by kernel names as recorded (`trainscope diff --exact-names`).
    void setExactNames(bool exact);
    // The line above the tables: the verdict, or why there is none.
    [[nodiscard]] QString summaryText() const;
    // Measurement warnings of A and B ("" when both are clean).
    [[nodiscard]] QString warningText() const;
    [[nodiscard]] QString noteText() const;
    // Synchronous variant (screenshots, tests).
    void loadKernelDiffNow();

  private slots:
    void runsChanged();
    void refresh();

  private:
    void traceReady(int side, const LoadedTracePtr& trace);
    void startDiff();
    // Raises every diff job's stop flag (a stopped job delivers nothing) and joins the
    // finished ones.
    void stopDiffJobs();
    void showDiff(const profiler::TraceDiff& diff);
    void showNoTrace(qint64 run_id);

    RunsTableModel* runs_;
    QString path_;
    QComboBox* a_;
    QComboBox* b_;
    QCheckBox* exact_names_;
    QLabel* note_;
    QLabel* summary_;
    QLabel* warning_;
    CompareMetricsModel* metrics_;
    QTableView* metrics_view_;
    TraceDiffModel* trace_diff_;
    QTableView* trace_diff_view_;
    TraceLoader loader_a_;
    TraceLoader loader_b_;
    std::array<bool, 2> host_ops_{};  // the side's trace is a CPU-backend run's
    std::array<LoadedTracePtr, 2> traces_;
    int loaded_ = 0;
    // The diff runs off the GUI thread (a long trace takes a while: the launch index
    // behind per-step selection); a result for an older pair of runs is dropped.
    int generation_ = 0;
    bool synchronous_ = false;  // loadKernelDiffNow
    struct DiffJob {
        std::shared_ptr<std::atomic<bool>> stop;
        std::shared_ptr<std::atomic<bool>> finished;
        std::thread thread;
    };
    // Every job not yet joined: a replaced job still holds `this` until it returns.
    std::vector<DiffJob> diff_jobs_;
};

}  // namespace trainscope::gui
