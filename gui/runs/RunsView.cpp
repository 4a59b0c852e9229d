#include "gui/runs/RunsView.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "gui/charts/LineChart.hpp"
#include "gui/common/MetricText.hpp"
#include "gui/runs/MetricChartData.hpp"
#include "gui/runs/RunsTableModel.hpp"
#include "reports/metrics/MetricTags.hpp"

namespace trainscope::gui {

RunsView::RunsView(RunsTableModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView),
      filter_(new QLineEdit),
      metric_(new QComboBox),
      x_axis_(new QComboBox),
      group_(new QComboBox),
      chart_(new LineChart) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(RunsTableModel::SortRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->sortByColumn(0, Qt::AscendingOrder);
    table_->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table_->horizontalHeader(), &QWidget::customContextMenuRequested, this,
            [this](const QPoint& pos) {
                columnMenu()->popup(table_->horizontalHeader()->mapToGlobal(pos));
            });
    filter_->setPlaceholderText(tr("Filter runs (any column, e.g. fp16 or failed)…"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Chart")));
    controls->addWidget(metric_, 2);
    controls->addWidget(new QLabel(tr("against")));
    controls->addWidget(x_axis_, 1);
    controls->addWidget(new QLabel(tr("one line per")));
    controls->addWidget(group_, 1);
    controls->addStretch();

    auto* top = new QWidget;
    auto* top_layout = new QVBoxLayout(top);
    top_layout->setContentsMargins(0, 0, 0, 0);
    top_layout->addWidget(filter_);
    top_layout->addWidget(table_);
    auto* bottom = new QWidget;
    auto* bottom_layout = new QVBoxLayout(bottom);
    bottom_layout->setContentsMargins(0, 0, 0, 0);
    bottom_layout->addLayout(controls);
    bottom_layout->addWidget(chart_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);

    connect(model_, &QAbstractItemModel::modelReset, this, &RunsView::modelReset);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { emit selectionChanged(selectedRunIds()); });
    for (QComboBox* box : {metric_, x_axis_, group_})
        connect(box, &QComboBox::currentIndexChanged, this, &RunsView::updateChart);
    modelReset();
}

namespace {
// The user's column choices: key -> shown. Keys not in it follow the model's default.
const QString kColumnChoices = QStringLiteral("runs/columns");
}  // namespace

int RunsView::columnOfKey(const QString& key) const {
    for (int c = 0; c < model_->columnCount(); ++c) {
        if (model_->headerData(c, Qt::Horizontal, RunsTableModel::ColumnKeyRole).toString() == key)
            return c;
    }
    return -1;
}

bool RunsView::isColumnShown(const QString& key) const {
    const int c = columnOfKey(key);
    return c >= 0 && !table_->isColumnHidden(c);
}

void RunsView::setColumnShown(const QString& key, bool shown) {
    QSettings settings;
    QVariantMap choices = settings.value(kColumnChoices).toMap();
    choices.insert(key, shown);
    settings.setValue(kColumnChoices, choices);
    applyColumnChoices();
}

void RunsView::resetColumns() {
    QSettings().remove(kColumnChoices);
    applyColumnChoices();
}

void RunsView::applyColumnChoices() {
    const QVariantMap choices = QSettings().value(kColumnChoices).toMap();
    for (int c = 0; c < model_->columnCount(); ++c) {
        const QString key =
            model_->headerData(c, Qt::Horizontal, RunsTableModel::ColumnKeyRole).toString();
        const bool shown =
            choices.contains(key)
                ? choices.value(key).toBool()
                : model_->headerData(c, Qt::Horizontal, RunsTableModel::DefaultShownRole).toBool();
        table_->setColumnHidden(c, !shown);
    }
}

QMenu* RunsView::columnMenu() {
    delete column_menu_;
    column_menu_ = new QMenu(this);
    for (int c = 0; c < model_->columnCount(); ++c) {
        const QString key =
            model_->headerData(c, Qt::Horizontal, RunsTableModel::ColumnKeyRole).toString();
        QAction* action = column_menu_->addAction(model_->headerData(c, Qt::Horizontal).toString());
        action->setCheckable(true);
        action->setChecked(!table_->isColumnHidden(c));
        action->setData(key);
        connect(action, &QAction::toggled, this,
                [this, key](bool checked) { setColumnShown(key, checked); });
    }
    column_menu_->addSeparator();
    connect(column_menu_->addAction(tr("Important columns only")), &QAction::triggered, this,
            &RunsView::resetColumns);
    return column_menu_;
}

void RunsView::setDark(bool dark) {
    chart_->setDark(dark);
}

std::vector<std::int64_t> RunsView::selectedRunIds() const {
    std::vector<std::int64_t> ids;
    const auto rows = table_->selectionModel()->selectedRows();
    for (const QModelIndex& i : rows)
        ids.push_back(i.data(RunsTableModel::RunIdRole).toLongLong());
    std::sort(ids.begin(), ids.end());
    return ids;
}

void RunsView::selectRun(std::int64_t run_id) {
    for (int r = 0; r < proxy_->rowCount(); ++r) {
        const QModelIndex i = proxy_->index(r, 0);
        if (i.data(RunsTableModel::RunIdRole).toLongLong() == run_id) {
            table_->selectionModel()->select(
                i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            table_->scrollTo(i);
            return;
        }
    }
}

void RunsView::modelReset() {
    const QSignalBlocker b1(metric_);
    const QSignalBlocker b2(x_axis_);
    const QSignalBlocker b3(group_);
    const QString old_metric = metric_->currentData().toString();
    metric_->clear();
    x_axis_->clear();
    group_->clear();
    for (const auto& m : model_->metricColumns())
        metric_->addItem(metricLabel(m), QString::fromStdString(m));
    group_->addItem(tr("(none)"), QString());
    for (const auto& a : model_->axisColumns()) {
        x_axis_->addItem(QString::fromStdString(a), QString::fromStdString(a));
        group_->addItem(QString::fromStdString(a), QString::fromStdString(a));
    }
    // Sensible defaults: images/s against batch, one line per precision.
    auto pick = [](QComboBox* box, const QStringList& wanted) {
        for (const QString& w : wanted) {
            const int i = box->findData(w);
            if (i >= 0) {
                box->setCurrentIndex(i);
                return;
            }
        }
    };
    pick(metric_, {old_metric, QString::fromLatin1(reports::metric_tag::images_per_s),
                   QString::fromLatin1(reports::metric_tag::step_ms_median)});
    pick(x_axis_, {QStringLiteral("batch")});
    pick(group_, {QStringLiteral("precision")});
    applyColumnChoices();
    updateChart();
}

void RunsView::setChartMetric(const QString& tag) {
    const int i = metric_->findData(tag);
    if (i >= 0)
        metric_->setCurrentIndex(i);
}

void RunsView::updateChart() {
    chart_->setData(buildMetricChart(model_->runs(),
                                     metric_->currentData().toString().toStdString(),
                                     x_axis_->currentData().toString().toStdString(),
                                     group_->currentData().toString().toStdString()));
}

}  // namespace trainscope::gui
