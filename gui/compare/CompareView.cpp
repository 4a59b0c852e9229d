#include "gui/compare/CompareView.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <memory>
#include <set>
#include <utility>

#include "gui/app/Theme.hpp"
#include "gui/common/FileErrors.hpp"
#include "gui/compare/CompareModels.hpp"
#include "gui/compare/TraceDiffModel.hpp"
#include "gui/runs/RunsTableModel.hpp"
#include "gui/timeline/TimeFormat.hpp"
#include "reports/quality/MeasurementWarnings.hpp"

namespace trainscope::gui {

namespace {

QString diffFailedText(const QString& why) {
    return QObject::tr("Could not compare the kernels: %1").arg(why);
}
QTableView* make_table(QAbstractItemModel* model, int sort_role, int sort_column,
                       Qt::SortOrder order, QObject* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(sort_role);
    auto* view = new QTableView;
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(sort_column, order);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    return view;
}
}  // namespace

CompareView::CompareView(RunsTableModel* runs, QWidget* parent)
    : QWidget(parent),
      runs_(runs),
      a_(new QComboBox),
      b_(new QComboBox),
      exact_names_(new QCheckBox(tr("Exact kernel names"))),
      note_(new QLabel),
      summary_(new QLabel),
      warning_(new QLabel),
      metrics_(new CompareMetricsModel(this)),
      trace_diff_(new TraceDiffModel(this)) {
    metrics_view_ =
        make_table(metrics_, CompareMetricsModel::SortRole, 0, Qt::AscendingOrder, this);
    metrics_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Column -1: the rows in diff_traces's own order (absolute change, largest first)
    // until a header is clicked.
    trace_diff_view_ =
        make_table(trace_diff_, TraceDiffModel::SortRole, -1, Qt::DescendingOrder, this);
    trace_diff_view_->setObjectName(QStringLiteral("kernelsDiff"));
    trace_diff_view_->setToolTip(
        tr("Kernels diff, the rows of `trainscope diff --per-step`: kernels and operators by "
           "name, kernel names without template arguments and parameters. Self time leaves "
           "out the ops nested inside (aten::addmm inside aten::linear); the change and the "
           "order are of self time, which adds up across rows"));
    trace_diff_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    trace_diff_view_->horizontalHeader()->setSectionResizeMode(TraceDiffModel::Name,
                                                               QHeaderView::Stretch);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Run A")));
    controls->addWidget(a_, 1);
    controls->addWidget(new QLabel(tr("Run B")));
    controls->addWidget(b_, 1);
    exact_names_->setToolTip(
        tr("Compare kernels by their names as recorded: template arguments and parameters "
           "make two kernels different (trainscope diff --exact-names)"));
    controls->addWidget(exact_names_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(metrics_view_);
    split->addWidget(trace_diff_view_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(summary_);
    layout->addWidget(warning_);
    layout->addWidget(note_);
    summary_->setWordWrap(true);
    warning_->setWordWrap(true);
    warning_->setStyleSheet(QStringLiteral("color: %1;").arg(Theme::warning.name()));
    warning_->hide();
    layout->addWidget(split, 1);
    note_->setText(tr("Select two runs in the Runs view (Ctrl+click) or pick them here."));
    connect(runs_, &QAbstractItemModel::modelReset, this, &CompareView::runsChanged);
    connect(a_, &QComboBox::currentIndexChanged, this, &CompareView::refresh);
    connect(b_, &QComboBox::currentIndexChanged, this, &CompareView::refresh);
    connect(exact_names_, &QCheckBox::toggled, this, [this] {
        if (loaded_ == 3)
            startDiff();
    });
    connect(&loader_a_, &TraceLoader::ready, this,
            [this](const LoadedTracePtr& t) { traceReady(0, t); });
    connect(&loader_b_, &TraceLoader::ready, this,
            [this](const LoadedTracePtr& t) { traceReady(1, t); });
    connect(&loader_a_, &TraceLoader::failed, note_, &QLabel::setText);
    connect(&loader_b_, &TraceLoader::failed, note_, &QLabel::setText);
    for (TraceLoader* loader : {&loader_a_, &loader_b_})
        connect(loader, &TraceLoader::noTrace, this, &CompareView::showNoTrace);
    runsChanged();  // the model may hold runs already
}

void CompareView::runsChanged() {
    const QSignalBlocker ba(a_);
    const QSignalBlocker bb(b_);
    a_->clear();
    b_->clear();
    // Where runs of trainscope and of PyTorch sit side by side, the framework is what
    // tells two otherwise equal labels apart: each label names it then.
    std::set<std::string> frameworks;
    for (const auto& r : runs_->runs())
        frameworks.insert(r.axes.framework);
    const bool name_framework = frameworks.size() > 1;
    for (const auto& r : runs_->runs()) {
        QString label = QStringLiteral("#%1 ").arg(r.id);
        if (name_framework)
            label +=
                QString::fromStdString(r.axes.framework.empty() ? "imported" : r.axes.framework) +
                QLatin1Char(' ');
        label +=
            QStringLiteral("%1 %2 batch %3")
                .arg(QString::fromStdString(r.axes.model), QString::fromStdString(r.axes.precision))
                .arg(r.axes.batch.value_or(0));
        if (r.status != reports::RunStatus::Ok)
            label += QStringLiteral(" (%1)").arg(
                QString::fromLatin1(reports::to_string(r.status).data()));
        for (const auto& w : reports::measurement_warnings(r))
            label += QStringLiteral(" ⚠ %1").arg(QString::fromStdString(w.tag));
        a_->addItem(label, QVariant::fromValue<qint64>(r.id));
        b_->addItem(label, QVariant::fromValue<qint64>(r.id));
    }
    if (b_->count() > 1)
        b_->setCurrentIndex(1);
    refresh();
}

void CompareView::setRuns(std::int64_t a, std::int64_t b) {
    const int ia = a_->findData(QVariant::fromValue<qint64>(a));
    const int ib = b_->findData(QVariant::fromValue<qint64>(b));
    const QSignalBlocker ba(a_);
    const QSignalBlocker bb(b_);
    if (ia >= 0)
        a_->setCurrentIndex(ia);
    if (ib >= 0)
        b_->setCurrentIndex(ib);
    refresh();
}

QString CompareView::summaryText() const {
    return summary_->text();
}
QString CompareView::warningText() const {
    return warning_->text();
}
QString CompareView::noteText() const {
    return note_->text();
}

void CompareView::refresh() {
    const auto* ra = runs_->runById(a_->currentData().toLongLong());
    const auto* rb = runs_->runById(b_->currentData().toLongLong());
    loader_a_.cancel();
    loader_b_.cancel();
    loaded_ = 0;
    traces_ = {};
    ++generation_;
    trace_diff_->clear();
    QStringList warnings;
    for (const auto& [side, run] :
         {std::pair{QStringLiteral("A"), ra}, {QStringLiteral("B"), rb}}) {
        if (!run)
            continue;
        for (const auto& w : reports::measurement_warnings(*run))
            warnings << tr("⚠ Run %1 (#%2): %3")
                            .arg(side)
                            .arg(run->id)
                            .arg(QString::fromStdString(w.text));
    }
    if (ra && rb && ra->id == rb->id) {
        metrics_->setRuns(nullptr, nullptr);
        summary_->setText(tr("Run A and run B are the same run (#%1): pick two different runs "
                             "to compare.")
                              .arg(ra->id));
        warning_->hide();
        note_->clear();
        return;
    }
    metrics_->setRuns(ra, rb);
    summary_->setText(ra && rb ? metrics_->summary() : QString());
    warning_->setText(warnings.join(QLatin1Char('\n')));
    warning_->setVisible(!warnings.isEmpty());
    if (!ra || !rb || path_.isEmpty())
        return;
    note_->setText(tr("Loading the kernel tables of runs %1 and %2…").arg(ra->id).arg(rb->id));
    loader_a_.start(path_, ra->id);
    loader_b_.start(path_, rb->id);
}

void CompareView::loadKernelDiffNow() {
    const auto ida = a_->currentData().toLongLong();
    const auto idb = b_->currentData().toLongLong();
    if (ida == idb)
        return;
    loader_a_.cancel();
    loader_b_.cancel();
    LoadedTracePtr ta;
    LoadedTracePtr tb;
    try {
        const auto error = fileErrorOf([&] {
            ta = TraceLoader::loadNow(path_, ida);
            tb = TraceLoader::loadNow(path_, idb);
        });
        if (error) {
            note_->setText(*error);
            return;
        }
    } catch (const NoTraceError& e) {
        showNoTrace(e.runId());
        return;
    }
    synchronous_ = true;
    traceReady(0, ta);
    traceReady(1, tb);
    synchronous_ = false;
}

void CompareView::showNoTrace(qint64 run_id) {
    note_->setText(tr("Run %1 has no trace: there are no kernel tables to compare.").arg(run_id));
}

void CompareView::traceReady(int side, const LoadedTracePtr& trace) {
    if (!trace || !trace->timeline)
        return;
    host_ops_[static_cast<std::size_t>(side)] = trace->timeline->hostOpTrace();
    traces_[static_cast<std::size_t>(side)] = trace;
    loaded_ |= 1 << side;
    if (loaded_ == 3)
        startDiff();
}

void CompareView::setExactNames(bool exact) {
    exact_names_->setChecked(exact);
}

void CompareView::startDiff() {
    // Per step when both traces have steps, over the steps' work only: the evaluation
    // after training would otherwise be spread over the steps.
    profiler::TraceDiffOptions options;
    options.per_step = true;
    options.exact_names = exact_names_->isChecked();
    const auto compute = [a = traces_[0], b = traces_[1], options] {
        // Read whole for the diff (from the store when the records live there) and let go.
        const ActivitySelection whole_a = a->timeline->wholeTrace();
        const ActivitySelection whole_b = b->timeline->wholeTrace();
        return profiler::diff_traces(whole_a.trace(), whole_b.trace(), options);
    };
    if (synchronous_) {
        profiler::TraceDiff diff;
        // The results file went away or the run was replaced in it since the load.
        if (const auto failed = fileErrorOf([&] { diff = compute(); }))
            note_->setText(diffFailedText(*failed));
        else
            showDiff(diff);
        return;
    }
    const int generation = ++generation_;
    note_->setText(tr("Comparing the kernels of the two runs…"));
    stopDiffJobs();
    auto stop = std::make_shared<std::atomic<bool>>(false);
    auto finished = std::make_shared<std::atomic<bool>>(false);
    // A std::thread, as TraceLoader's jobs (not QtConcurrent: TSan cannot see Qt's pool
    // hand a task over). The result comes to the GUI thread as a queued call on `this`,
    // which the destructor outlives by joining the job first.
    std::thread thread([this, compute, stop, finished, generation] {
        // A store read that fails (the results file went away, or the run was replaced
        // in it since the load) is said in the view; leaving the thread would terminate.
        std::shared_ptr<const profiler::TraceDiff> diff;
        QString failure;
        if (const auto failed =
                fileErrorOf([&] { diff = std::make_shared<const profiler::TraceDiff>(compute()); }))
            failure = diffFailedText(*failed);
        if (!stop->load()) {
            QMetaObject::invokeMethod(
                this,
                [this, diff, failure, stop, generation] {
                    if (stop->load() || generation != generation_)
                        return;
                    if (diff)
                        showDiff(*diff);
                    else
                        note_->setText(failure);
                },
                Qt::QueuedConnection);
        }
        finished->store(true);
    });
    diff_jobs_.push_back(DiffJob{std::move(stop), std::move(finished), std::move(thread)});
}

void CompareView::stopDiffJobs() {
    for (DiffJob& job : diff_jobs_)
        job.stop->store(true);
    std::erase_if(diff_jobs_, [](DiffJob& job) {
        if (!job.finished->load())
            return false;
        job.thread.join();  // returns at once: the job has left its body
        return true;
    });
}

CompareView::~CompareView() {
    stopDiffJobs();
    // diff_traces has no stop flag: a running diff is waited for (it reads the traces
    // its job shares, and posts to `this` unless stopped).
    for (DiffJob& job : diff_jobs_)
        job.thread.join();
}

void CompareView::showDiff(const profiler::TraceDiff& result) {
    trace_diff_->setDiff(result);
    const profiler::TraceDiff& diff = trace_diff_->diff();
    double ta = 0;
    double tb = 0;
    for (const auto& row : diff.rows) {
        if (row.subject != profiler::DiffSubject::Kernel)
            continue;
        // Self times: an op nested in another is counted in its own row only.
        ta += row.a.self_time_ns;
        tb += row.b.self_time_ns;
    }
    // A CPU-backend run's device work is its ops.
    const QString work = host_ops_[0] && host_ops_[1] ? tr("CPU op time")
                         : !host_ops_[0] && !host_ops_[1]
                             ? tr("GPU time")
                             : tr("Device time (CPU ops against GPU work)");
    if (diff.per_step) {
        note_->setText(tr("%1 per training step (NVTX \"step\" or Kineto ProfilerStep#N "
                          "ranges; A: %2 steps, B: %3): A %4, B %5, B − A %6. Red: B slower, "
                          "green: B faster.")
                           .arg(work)
                           .arg(diff.steps_a)
                           .arg(diff.steps_b)
                           .arg(formatDuration(ta), formatDuration(tb), formatDuration(tb - ta)));
    } else {
        note_->setText(
            tr("%1 in all (the traces have no step ranges): A %2, B %3, B − A %4.")
                .arg(work, formatDuration(ta), formatDuration(tb), formatDuration(tb - ta)));
    }
    // As `trainscope diff` says it: a multi-rank run's figures are its ranks' sums.
    for (const auto& [side, ranks] : {std::pair{"A", diff.ranks_a}, std::pair{"B", diff.ranks_b}}) {
        if (ranks > 1)
            note_->setText(note_->text() + tr(" %1: summed over its %2 ranks (steps per rank).")
                                               .arg(QLatin1String(side))
                                               .arg(ranks));
    }
}

}  // namespace trainscope::gui
