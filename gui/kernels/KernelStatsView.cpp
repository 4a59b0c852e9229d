#include "gui/kernels/KernelStatsView.hpp"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "gui/kernels/KernelStatsModel.hpp"

namespace trainscope::gui {

KernelStatsView::KernelStatsView(KernelStatsModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView),
      filter_(new QLineEdit) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(KernelStatsModel::SortRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(KernelStatsModel::Total, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->horizontalHeader()->setSectionResizeMode(KernelStatsModel::Name, QHeaderView::Stretch);
    table_->setToolTip(tr("Double-click a kernel to show its longest instance on the timeline."));
    filter_->setPlaceholderText(tr("Filter kernels by name or category…"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        emit jumpToActivity(index.data(KernelStatsModel::LongestActivityRole).toUInt());
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(filter_);
    layout->addWidget(table_);
}

}  // namespace trainscope::gui
