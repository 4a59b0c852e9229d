#include "gui/app/MainWindow.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "gui/app/CsvExport.hpp"
#include "gui/app/RecentFilesMenu.hpp"
#include "gui/app/ShortcutsHelp.hpp"
#include "gui/app/Theme.hpp"
#include "gui/charts/LineChart.hpp"
#include "gui/common/FileErrors.hpp"
#include "gui/compare/CompareView.hpp"
#include "gui/kernels/KernelStatsModel.hpp"
#include "gui/kernels/KernelStatsView.hpp"
#include "gui/range/RangePanel.hpp"
#include "gui/roofline/RooflineView.hpp"
#include "gui/runs/RunsTableModel.hpp"
#include "gui/runs/RunsView.hpp"
#include "gui/timeline/StragglerPanel.hpp"
#include "gui/timeline/TimeFormat.hpp"
#include "gui/timeline/TimelineView.hpp"
#include "gui/utilization/UtilizationView.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::gui {

namespace {
// Host lanes with deeper stacks start collapsed (click the lane's label to expand).
constexpr int kCollapseLanesDeeperThan = 12;
}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      runs_model_(new RunsTableModel(this)),
      kernel_model_(new KernelStatsModel(this)),
      tabs_(new QTabWidget),
      runs_view_(new RunsView(runs_model_)),
      timeline_page_(new QWidget),
      timeline_split_(new QSplitter(Qt::Vertical)),
      timeline_(new TimelineView),
      utilization_(new UtilizationView),
      search_(new QLineEdit),
      search_status_(new QLabel),
      range_panel_(new RangePanel),
      stragglers_(new StragglerPanel),
      kernels_view_(new KernelStatsView(kernel_model_)),
      roofline_view_(new RooflineView),
      compare_(new CompareView(runs_model_)),
      progress_(new QProgressBar),
      cancel_(new QToolButton) {
    setWindowTitle(QStringLiteral("trainscope"));
    error_sink_ = [this](const QString& message) {
        QMessageBox::critical(this, tr("trainscope"), message);
    };
    buildTimelinePage();
    connectTimeline();
    buildTabs();
    buildStatusBar();
    createMenus();
    restoreSettings();
}

// The Timeline tab: search bar, the timeline with the utilization below it on the same
// time axis, and the range statistics beside them (shown while a range is selected).
void MainWindow::buildTimelinePage() {
    auto* bar = new QHBoxLayout;
    search_->setPlaceholderText(
        tr("Find kernel by name (Ctrl+F), Enter / F3 next, Shift+F3 previous"));
    search_->setClearButtonEnabled(true);
    auto* prev = new QPushButton(tr("◀ Previous"));
    auto* next = new QPushButton(tr("Next ▶"));
    auto* fit = new QPushButton(tr("Fit (Home)"));
    bar->addWidget(search_, 2);
    bar->addWidget(search_status_);
    bar->addWidget(prev);
    bar->addWidget(next);
    bar->addWidget(fit);
    bar->addStretch(1);
    timeline_split_->addWidget(timeline_);
    timeline_split_->addWidget(utilization_);
    timeline_split_->addWidget(stragglers_);  // shown for a distributed job's run
    timeline_split_->setStretchFactor(0, 4);
    timeline_split_->setStretchFactor(1, 1);
    auto* range_split = new QSplitter(Qt::Horizontal);
    range_split->addWidget(timeline_split_);
    range_split->addWidget(range_panel_);
    range_split->setStretchFactor(0, 3);
    range_split->setStretchFactor(1, 1);
    auto* page_layout = new QVBoxLayout(timeline_page_);
    page_layout->setContentsMargins(4, 4, 4, 4);
    page_layout->addLayout(bar);
    page_layout->addWidget(range_split, 1);
    connect(search_, &QLineEdit::textChanged, timeline_, &TimelineView::setSearchText);
    connect(search_, &QLineEdit::returnPressed, timeline_, &TimelineView::findNext);
    connect(next, &QPushButton::clicked, timeline_, &TimelineView::findNext);
    connect(prev, &QPushButton::clicked, timeline_, &TimelineView::findPrevious);
    connect(fit, &QPushButton::clicked, timeline_, &TimelineView::zoomToFit);
}

// The timeline drives the utilization's axis, the status bar, the range panel and the
// Kernels tab's scope.
void MainWindow::connectTimeline() {
    connect(timeline_, &TimelineView::searchStatusChanged, search_status_, &QLabel::setText);
    connect(timeline_, &TimelineView::mappingChanged, utilization_, &UtilizationView::setMapping);
    connect(utilization_, &UtilizationView::wheelZoom, this, [this](double f, double x) {
        timeline_->setMapping(timeline_->state().mapping.zoomed(f, std::max(x, 0.0)));
    });
    connect(timeline_, &TimelineView::statusMessage, this,
            [this](const QString& m) { statusBar()->showMessage(m); });
    connect(timeline_, &TimelineView::rangeSelected, this, &MainWindow::showRange);
    connect(kernels_view_, &KernelStatsView::wholeRunRequested, this,
            [this] { showKernelStats(); });
    connect(timeline_, &TimelineView::rangeCleared, this, [this] {
        range_panel_->clear();
        showKernelStats();  // the Kernels tab followed the range: back to the run
    });
    connect(range_panel_, &RangePanel::closeRequested, timeline_, &TimelineView::clearSelection);
    connect(stragglers_, &StragglerPanel::rankActivated, timeline_, &TimelineView::showOnlyRank);
}

void MainWindow::showRange(double t0, double t1) {
    if (!trace_)
        return;
    range_panel_->showRange(*trace_->timeline, t0, t1,
                            TimelineRenderer::originNs(*trace_->timeline, timeline_->state()));
    // The Kernels tab follows the range until "Show the whole run".
    std::vector<KernelStat> stats;
    // Read from the results file, as the range panel's figures: a failure is said there.
    if (fileErrorOf([&] { stats = computeKernelStats(*trace_->timeline, t0, t1); }))
        return;
    kernel_model_->setStats(stats);
    const double base = static_cast<double>(trace_->timeline->beginNs());
    kernels_view_->setScope(tr("Run %1, range %2 – %3")
                                .arg(trace_->run_id)
                                .arg(formatDuration(t0 - base), formatDuration(t1 - base)),
                            true);
}

void MainWindow::buildTabs() {
    tabs_->addTab(runs_view_, tr("Runs"));
    tabs_->addTab(timeline_page_, tr("Timeline"));
    tabs_->addTab(kernels_view_, tr("Kernels"));
    tabs_->addTab(roofline_view_, tr("Roofline"));
    tabs_->addTab(compare_, tr("Compare"));
    setCentralWidget(tabs_);
    connect(runs_view_, &RunsView::selectionChanged, this, &MainWindow::selectionChanged);
    // A roofline point selects its op's instances: the timeline's search for the name.
    connect(roofline_view_, &RooflineView::opClicked, this, [this](const QString& name) {
        tabs_->setCurrentWidget(timeline_page_);
        search_->setText(name);
        timeline_->findNext();
    });
    connect(kernels_view_, &KernelStatsView::jumpToActivity, this, [this](std::uint32_t a) {
        tabs_->setCurrentWidget(timeline_page_);
        timeline_->zoomToActivity(a);
    });
}

// The loader's progress bar and Cancel button in the status bar, and its results.
void MainWindow::buildStatusBar() {
    progress_->setRange(0, 100);
    progress_->setMaximumWidth(220);
    progress_->hide();
    cancel_->setText(tr("Cancel"));
    cancel_->hide();
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    connect(cancel_, &QToolButton::clicked, &loader_, &TraceLoader::cancel);
    connect(&loader_, &TraceLoader::progress, progress_, &QProgressBar::setValue);
    connect(&loader_, &TraceLoader::ready, this, &MainWindow::traceReady);
    connect(&loader_, &TraceLoader::preview, this, &MainWindow::traceOutline);
    connect(&loader_, &TraceLoader::failed, this, &MainWindow::loadFailed);
    connect(&loader_, &TraceLoader::noTrace, this, &MainWindow::traceMissing);
    connect(&loader_, &TraceLoader::cancelled, this, [this] {
        hideProgress();
        statusBar()->showMessage(tr("Loading cancelled."), 4000);
    });
}

void MainWindow::hideProgress() {
    progress_->hide();
    cancel_->hide();
}

void MainWindow::restoreSettings() {
    QSettings settings;
    setDark(settings.value(QStringLiteral("dark"), true).toBool());
    resize(1500, 950);
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
    timeline_split_->restoreState(settings.value(QStringLiteral("timelineSplit")).toByteArray());
}

MainWindow::~MainWindow() = default;

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    settings.setValue(QStringLiteral("timelineSplit"), timeline_split_->saveState());
    settings.setValue(QStringLiteral("dark"), dark_);
    loader_.cancel();
    event->accept();
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open results database…"), QKeySequence::Open, this,
                    &MainWindow::openDialog);
    recent_ = new RecentFilesMenu(
        file->addMenu(tr("Open &recent")), [this](const QString& path) { openAndShow(path); },
        this);
    file->addSeparator();
    file->addAction(tr("Export table as &CSV…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                    &MainWindow::exportCsv);
    file->addAction(tr("Export view as &PNG…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
                    this, &MainWindow::exportPng);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList names = {tr("&Runs"), tr("&Timeline"), tr("&Kernels"), tr("&Compare")};
    for (int i = 0; i < names.size(); ++i) {
        view->addAction(names[i], QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)),
                        this, [this, i] { tabs_->setCurrentIndex(i); });
    }
    view->addSeparator();
    auto* group = new QActionGroup(this);
    dark_action_ = view->addAction(tr("&Dark palette"));
    light_action_ = view->addAction(tr("&Light palette"));
    for (QAction* a : {dark_action_, light_action_}) {
        a->setCheckable(true);
        group->addAction(a);
    }
    // Checked by setDark, so that the menu shows the palette in use (a saved light one too).
    connect(dark_action_, &QAction::triggered, this, [this] { setDark(true); });
    connect(light_action_, &QAction::triggered, this, [this] { setDark(false); });
    auto* find = new QAction(this);
    find->setShortcut(QKeySequence::Find);
    connect(find, &QAction::triggered, this, [this] {
        tabs_->setCurrentWidget(timeline_page_);
        search_->setFocus();
        search_->selectAll();
    });
    addAction(find);
    auto* next = new QAction(this);
    next->setShortcut(QKeySequence(Qt::Key_F3));
    connect(next, &QAction::triggered, timeline_, &TimelineView::findNext);
    addAction(next);
    auto* prev = new QAction(this);
    prev->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
    connect(prev, &QAction::triggered, timeline_, &TimelineView::findPrevious);
    addAction(prev);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this, [this] {
        QMessageBox::information(this, tr("Keyboard shortcuts"), shortcutsHelpHtml());
    });
    help->addAction(tr("&About"), this, [this] {
        QMessageBox::about(this, tr("About trainscope"),
                           tr("trainscope-gui explores trainscope results databases: runs, "
                              "kernel timelines, utilization, kernel statistics, comparisons."));
    });
}

void MainWindow::setDark(bool dark) {
    dark_ = dark;
    (dark ? dark_action_ : light_action_)->setChecked(true);
    applyPalette(dark);
    timeline_->setDark(dark);
    utilization_->setDark(dark);
    runs_view_->setDark(dark);
}

void MainWindow::reportError(const QString& message) {
    if (error_sink_)
        error_sink_(message);
}

bool MainWindow::openDatabase(const QString& path) {
    std::vector<reports::RunRecord> runs;
    std::vector<std::int64_t> traced;
    std::optional<QString> error;
    if (!QFileInfo::exists(path)) {
        error = tr("no such file: %1").arg(path);
    } else {
        error = fileErrorOf([&] {
            reports::ResultsDatabase db(path.toStdString(), reports::OpenMode::ReadOnly);
            reports::RunParts parts;
            parts.metrics = true;
            parts.environment = true;
            runs = reports::load_runs(db, {}, parts);
            traced = reports::traced_run_ids(db);
        });
    }
    if (error) {
        reportError(tr("Cannot open %1:\n%2").arg(path, *error));
        return false;
    }
    loader_.cancel();
    for (auto& l : extra_loaders_)
        l->cancel();
    extra_loaders_.clear();
    extra_stats_.clear();
    kernel_runs_.clear();
    path_ = path;
    trace_.reset();
    requested_run_ = -1;
    timeline_->setData(nullptr);
    utilization_->setData(nullptr);
    kernel_model_->setStats({});
    compare_->setDatabasePath(path);
    runs_model_->setRuns(std::move(runs));
    setWindowTitle(QStringLiteral("trainscope — %1").arg(QFileInfo(path).fileName()));
    if (remember_recent_)
        recent_->add(QFileInfo(path).absoluteFilePath());
    statusBar()->showMessage(tr("%1 runs in %2").arg(runs_model_->rowCount()).arg(path), 5000);
    traced_runs_ = std::move(traced);
    return true;
}

bool MainWindow::openAndShow(const QString& path, std::optional<std::int64_t> run) {
    if (!openDatabase(path))
        return false;
    if (run && !runs_model_->runById(*run)) {
        reportError(tr("There is no run %1 in %2.").arg(*run).arg(path));
        run.reset();
    }
    if (!run && !traced_runs_.empty())
        run = traced_runs_.front();
    if (!run)
        return true;
    // A trace is what explains a run, so a database with one opens on it, ready for the
    // keyboard (W/A/S/D) without a click first.
    runs_view_->selectRun(*run);
    showView(View::Timeline);
    timeline_->setFocus(Qt::OtherFocusReason);
    return true;
}

void MainWindow::openDialog() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open results database"), QString(),
                                     tr("Results databases (*.db *.sqlite);;All files (*)"));
    if (!path.isEmpty())
        openAndShow(path);
}

void MainWindow::selectionChanged(const std::vector<std::int64_t>& ids) {
    if (ids.size() >= 2)
        compare_->setRuns(ids[0], ids[1]);
    if (ids.empty() || path_.isEmpty())
        return;
    loadExtraKernelStats(ids);
    const std::int64_t id = ids.front();
    if (id == requested_run_)
        return;
    const auto* run = runs_model_->runById(id);
    if (!run || run->status != reports::RunStatus::Ok) {
        statusBar()->showMessage(tr("Run %1 has no results: %2")
                                     .arg(id)
                                     .arg(run ? QString::fromStdString(run->error) : QString()),
                                 6000);
        return;
    }
    requested_run_ = id;
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
    statusBar()->showMessage(tr("Loading the trace of run %1…").arg(id));
    loader_.start(path_, id);
}

void MainWindow::traceReady(const LoadedTracePtr& trace) {
    hideProgress();
    // The outline was on screen: where the user zoomed meanwhile stays in view (the same
    // absolute times, should the full trace be rebased by another amount).
    const auto& shown = timeline_->data();
    const bool keep_view = trace && shown && shown->partial() && outline_run_ == trace->run_id;
    const TimeAxisMapping view = timeline_->state().mapping;
    const double shift =
        keep_view ? static_cast<double>(shown->rebasedBy() - trace->timeline->rebasedBy()) : 0.0;
    setTrace(trace);
    if (keep_view)
        timeline_->setMapping(
            TimeAxisMapping(view.startNs() + shift, view.nsPerPixel(), view.width()));
}

void MainWindow::traceOutline(const LoadedTracePtr& outline) {
    if (!outline || outline->run_id != requested_run_)
        return;
    setTrace(nullptr);
    outline_run_ = outline->run_id;
    timeline_->setData(outline->timeline);
    timeline_->collapseDeepLanes(kCollapseLanesDeeperThan);
    statusBar()->showMessage(
        tr("Run %1: the timeline shows its stored summaries while its events load…")
            .arg(outline->run_id));
}

void MainWindow::loadFailed(const QString& message) {
    hideProgress();
    requested_run_ = -1;
    statusBar()->showMessage(message, 8000);
    reportError(message);
}

void MainWindow::traceMissing(qint64 run_id) {
    // A run recorded without --trace is no fault: the status bar says so, no error box.
    hideProgress();
    requested_run_ = -1;
    statusBar()->showMessage(tr("Run %1 has no trace (it ran without --trace).").arg(run_id), 8000);
}

void MainWindow::setTrace(const LoadedTracePtr& trace) {
    trace_ = trace;
    outline_run_ = -1;
    timeline_->setData(trace ? trace->timeline : nullptr);
    timeline_->collapseDeepLanes(kCollapseLanesDeeperThan);
    utilization_->setData(trace ? trace->timeline : nullptr);
    utilization_->setMapping(timeline_->state().mapping);
    stragglers_->setTrace(trace ? &trace->timeline->trace() : nullptr);
    roofline_view_->setData(trace ? trace->roofline : std::vector<reports::OpRooflineRow>{},
                            trace ? trace->roofs : reports::Roofs{});
    showKernelStats();
    if (trace) {
        const TimelineData& td = *trace->timeline;
        statusBar()->showMessage(
            (td.hostOpTrace() ? tr("Run %1: %2 activities, %3 CPU ops, %4 lanes")
                              : tr("Run %1: %2 activities, %3 kernels, %4 lanes"))
                .arg(trace->run_id)
                .arg(td.activityCount())
                .arg(td.hostOpTrace() ? td.gpuWorkByStart().size() : td.kernelCount())
                .arg(td.trace().lanes.size()),
            8000);
    }
}

void MainWindow::loadExtraKernelStats(const std::vector<std::int64_t>& ids) {
    // The first selected run is on the timeline; the others (ok runs, at most 8) load
    // in the background for their kernel statistics only.
    constexpr std::size_t kMaxExtra = 8;
    std::vector<std::int64_t> extra;
    for (std::size_t i = 1; i < ids.size() && extra.size() < kMaxExtra; ++i) {
        const auto* run = runs_model_->runById(ids[i]);
        if (run && run->status == reports::RunStatus::Ok)
            extra.push_back(ids[i]);
    }
    std::vector<std::int64_t> wanted = {ids.front()};
    wanted.insert(wanted.end(), extra.begin(), extra.end());
    if (wanted == kernel_runs_)
        return;
    kernel_runs_ = wanted;
    for (auto& l : extra_loaders_)
        l->cancel();
    extra_loaders_.clear();
    for (auto it = extra_stats_.begin(); it != extra_stats_.end();) {
        if (std::find(extra.begin(), extra.end(), it->first) == extra.end())
            it = extra_stats_.erase(it);
        else
            ++it;
    }
    for (const std::int64_t id : extra) {
        if (extra_stats_.count(id) != 0)
            continue;
        auto loader = std::make_unique<TraceLoader>();
        connect(loader.get(), &TraceLoader::ready, this, [this](const LoadedTracePtr& t) {
            if (!t)
                return;
            extra_stats_[t->run_id] = t->kernel_stats;
            showKernelStats();
        });
        loader->start(path_, id);
        extra_loaders_.push_back(std::move(loader));
    }
    showKernelStats();
}

void MainWindow::showKernelStats() {
    if (!trace_) {
        kernel_model_->setStats({});
        kernels_view_->setScope(QString(), false);
        return;
    }
    std::vector<const std::vector<KernelStat>*> parts = {&trace_->kernel_stats};
    QStringList runs = {QString::number(trace_->run_id)};
    for (std::size_t i = 1; i < kernel_runs_.size(); ++i) {
        const auto it = extra_stats_.find(kernel_runs_[i]);
        if (it != extra_stats_.end() && kernel_runs_.front() == trace_->run_id) {
            parts.push_back(&it->second);
            runs << QString::number(it->first);
        }
    }
    if (parts.size() == 1) {
        kernel_model_->setStats(trace_->kernel_stats);
        kernels_view_->setScope(tr("Run %1, whole trace").arg(trace_->run_id), false);
        return;
    }
    kernel_model_->setStats(mergeKernelStats(parts));
    kernels_view_->setScope(tr("Runs %1 together").arg(runs.join(QStringLiteral(", "))), false);
}

bool MainWindow::loadTraceNow(std::int64_t run_id) {
    LoadedTracePtr trace;
    std::optional<QString> error;
    try {
        error = fileErrorOf([&] { trace = TraceLoader::loadNow(path_, run_id); });
    } catch (const NoTraceError& e) {
        error = QString::fromStdString(e.what());
    }
    if (error) {
        reportError(*error);
        return false;
    }
    requested_run_ = run_id;
    setTrace(trace);
    return true;
}

std::optional<std::int64_t> MainWindow::loadFirstTraceNow() {
    for (const std::int64_t id : traced_runs_) {
        LoadedTracePtr trace;
        if (fileErrorOf([&] { trace = TraceLoader::loadNow(path_, id); }))
            continue;  // a damaged trace: try the next (a bug propagates)
        requested_run_ = id;
        setTrace(trace);
        return id;
    }
    return std::nullopt;
}

}  // namespace trainscope::gui
