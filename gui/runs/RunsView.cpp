#include "gui/runs/RunsView.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "gui/charts/LineChart.hpp"
#include "gui/runs/MetricChartData.hpp"
#include "gui/runs/RunsTableModel.hpp"

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
    const QString old_metric = metric_->currentText();
    metric_->clear();
    x_axis_->clear();
    group_->clear();
    for (const auto& m : model_->metricColumns())
        metric_->addItem(QString::fromStdString(m));
    group_->addItem(tr("(none)"), QString());
    for (const auto& a : model_->axisColumns()) {
        x_axis_->addItem(QString::fromStdString(a));
        group_->addItem(QString::fromStdString(a), QString::fromStdString(a));
    }
    // Sensible defaults: images/s against batch, one line per precision.
    auto pick = [](QComboBox* box, const QStringList& wanted) {
        for (const QString& w : wanted) {
            const int i = box->findText(w);
            if (i >= 0) {
                box->setCurrentIndex(i);
                return;
            }
        }
    };
    pick(metric_, {old_metric, QStringLiteral("images_per_s"), QStringLiteral("step_ms_median")});
    pick(x_axis_, {QStringLiteral("batch")});
    pick(group_, {QStringLiteral("precision")});
    updateChart();
}

void RunsView::updateChart() {
    chart_->setData(buildMetricChart(model_->runs(), metric_->currentText().toStdString(),
                                     x_axis_->currentText().toStdString(),
                                     group_->currentData().toString().toStdString()));
}

}  // namespace trainscope::gui
