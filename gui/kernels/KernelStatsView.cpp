#include "gui/kernels/KernelStatsView.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "gui/kernels/KernelStatsModel.hpp"
#include "gui/kernels/KernelTable.hpp"

namespace trainscope::gui {

KernelStatsView::KernelStatsView(KernelStatsModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView),
      filter_(new QLineEdit),
      scope_(new QLabel),
      whole_run_(new QPushButton(tr("Show the whole run"))) {
    setUpKernelTable(model_, proxy_, table_, filter_);
    table_->setToolTip(tr("Double-click a kernel to show its longest instance on the timeline."));
    filter_->setPlaceholderText(tr("Filter kernels by name or category…"));
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const auto activity = index.data(KernelStatsModel::LongestActivityRole).toUInt();
        if (activity != kNoActivity)  // a kernel of another selected run: not on the timeline
            emit jumpToActivity(activity);
    });
    auto* top = new QHBoxLayout;
    top->addWidget(filter_, 1);
    top->addWidget(scope_);
    top->addWidget(whole_run_);
    whole_run_->hide();
    connect(whole_run_, &QPushButton::clicked, this, &KernelStatsView::wholeRunRequested);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(table_);
}

void KernelStatsView::setScope(const QString& text, bool is_range) {
    scope_->setText(text);
    whole_run_->setVisible(is_range);
}

}  // namespace trainscope::gui
