#pragma once

#include <QMainWindow>
#include <QString>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "gui/loading/TraceLoader.hpp"

class QAction;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QSplitter;
class QTabWidget;
class QToolButton;

namespace trainscope::gui {

class CompareView;
class KernelStatsModel;
class KernelStatsView;
class RooflineView;
class RangePanel;
class RunsTableModel;
class RecentFilesMenu;
class RunsView;
class StragglerPanel;
class TimelineView;
class UtilizationView;

// The application window: Runs, Timeline (with utilization below), Kernels, Roofline,
// Compare.
class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    enum class View { Runs, Timeline, Utilization, Kernels, Compare };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Errors go here (default: a message box); tests and --screenshot replace it.
    void setErrorSink(std::function<void(const QString&)> sink) { error_sink_ = std::move(sink); }
    // Reads the runs table (fast, on this thread). False, with the error reported, when
    // the file is not a readable results database.
    bool openDatabase(const QString& path);
    // What a user's open does (command line, File › Open, Open Recent): openDatabase, then
    // `run` (default: the first run with a trace, if any) selected, its trace loading in
    // the background, on the Timeline with the keyboard focus on its canvas.
    bool openAndShow(const QString& path, std::optional<std::int64_t> run = std::nullopt);
    // The ok runs with a trace in the open database.
    [[nodiscard]] const std::vector<std::int64_t>& tracedRuns() const { return traced_runs_; }
    // Loads a run's trace on this thread (screenshots, tests).
    bool loadTraceNow(std::int64_t run_id);
    // The first ok run that has a trace, loaded on this thread.
    std::optional<std::int64_t> loadFirstTraceNow();
    void showView(View view);
    // zoom: the fraction of the trace the timeline shows, centred (1: all of it).
    [[nodiscard]] QImage renderView(View view, QSize size, double zoom = 1.0);
    void setDark(bool dark);
    // Screenshots and tests leave the user's recent-files list alone.
    void setRememberRecent(bool remember) { remember_recent_ = remember; }

    [[nodiscard]] RunsTableModel* runsModel() const { return runs_model_; }
    [[nodiscard]] KernelStatsModel* kernelModel() const { return kernel_model_; }
    [[nodiscard]] TimelineView* timeline() const { return timeline_; }
    [[nodiscard]] UtilizationView* utilization() const { return utilization_; }
    [[nodiscard]] RunsView* runsView() const { return runs_view_; }
    [[nodiscard]] CompareView* compareView() const { return compare_; }
    [[nodiscard]] RangePanel* rangePanel() const { return range_panel_; }
    [[nodiscard]] QLabel* searchStatus() const { return search_status_; }
    [[nodiscard]] const QString& databasePath() const { return path_; }

  protected:
    void closeEvent(QCloseEvent* event) override;

  private slots:
    void openDialog();
    void exportCsv();
    void exportPng();
    void selectionChanged(const std::vector<std::int64_t>& ids);
    void traceReady(const trainscope::gui::LoadedTracePtr& trace);
    // The requested run's outline while its events load: the timeline paints its
    // summaries, the other views wait for traceReady.
    void traceOutline(const trainscope::gui::LoadedTracePtr& outline);
    void loadFailed(const QString& message);
    void traceMissing(qint64 run_id);

  private:
    // The constructor's passes, in order.
    void buildTimelinePage();
    void connectTimeline();
    void buildTabs();
    void buildStatusBar();
    void createMenus();
    void restoreSettings();

    void showRange(double t0_ns, double t1_ns);
    void hideProgress();
    void setTrace(const LoadedTracePtr& trace);
    void reportError(const QString& message);

    QString path_;
    std::function<void(const QString&)> error_sink_;
    RunsTableModel* runs_model_;
    KernelStatsModel* kernel_model_;
    QTabWidget* tabs_;
    RunsView* runs_view_;
    QWidget* timeline_page_;
    QSplitter* timeline_split_;
    TimelineView* timeline_;
    UtilizationView* utilization_;
    QLineEdit* search_;
    QLabel* search_status_;
    RangePanel* range_panel_;
    StragglerPanel* stragglers_;
    KernelStatsView* kernels_view_;
    RooflineView* roofline_view_;
    CompareView* compare_;
    QProgressBar* progress_;
    QToolButton* cancel_;
    RecentFilesMenu* recent_ = nullptr;
    QAction* dark_action_ = nullptr;
    QAction* light_action_ = nullptr;
    TraceLoader loader_;
    LoadedTracePtr trace_;
    // Further selected runs: their kernel statistics join the Kernels tab.
    std::vector<std::int64_t> kernel_runs_;
    std::vector<std::unique_ptr<TraceLoader>> extra_loaders_;
    std::map<std::int64_t, std::vector<KernelStat>> extra_stats_;
    void loadExtraKernelStats(const std::vector<std::int64_t>& ids);
    void showKernelStats();
    std::int64_t requested_run_ = -1;
    std::int64_t outline_run_ = -1;  // the run whose outline the timeline shows, if any
    std::vector<std::int64_t> traced_runs_;
    bool dark_ = true;
    bool remember_recent_ = true;
};

}  // namespace trainscope::gui
