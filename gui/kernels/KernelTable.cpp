#include "gui/kernels/KernelTable.hpp"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "gui/kernels/KernelStatsModel.hpp"

namespace trainscope::gui {

void setUpKernelTable(KernelStatsModel* model, QSortFilterProxyModel* proxy, QTableView* table,
                      QLineEdit* filter) {
    proxy->setSourceModel(model);
    proxy->setSortRole(KernelStatsModel::SortRole);
    proxy->setFilterKeyColumn(-1);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(KernelStatsModel::Total, Qt::DescendingOrder);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setTextElideMode(Qt::ElideMiddle);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->horizontalHeader()->setSectionResizeMode(KernelStatsModel::Name, QHeaderView::Stretch);
    // "normalization" and "elementwise" whole: the category is what a reader scans for.
    table->horizontalHeader()->setSectionResizeMode(KernelStatsModel::CategoryColumn,
                                                    QHeaderView::ResizeToContents);
    filter->setClearButtonEnabled(true);
    QObject::connect(filter, &QLineEdit::textChanged, proxy,
                     &QSortFilterProxyModel::setFilterFixedString);
}

}  // namespace trainscope::gui
