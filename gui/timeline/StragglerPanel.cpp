#include "gui/timeline/StragglerPanel.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "gui/timeline/TimeFormat.hpp"
#include "profiler/analysis/RankWork.hpp"

namespace trainscope::gui {

StragglerTableModel::StragglerTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void StragglerTableModel::setTrace(const profiler::Trace* trace) {
    beginResetModel();
    report_ = trace != nullptr ? profiler::analyze_stragglers(*trace) : profiler::StragglerReport{};
    endResetModel();
}

int StragglerTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(report_.ranks.size());
}

int StragglerTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StragglerTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const profiler::RankStraggling& r = report_.ranks[static_cast<std::size_t>(index.row())];
    if (role == SortRole || (role == Qt::DisplayRole && index.column() <= TimesLast)) {
        switch (index.column()) {
            case Rank:
                return r.rank;
            case Collectives:
                return static_cast<qlonglong>(r.collectives);
            case TimesLast:
                return static_cast<qlonglong>(r.times_last);
            case WaitCaused:
                return static_cast<qlonglong>(r.wait_caused_ns);
            case Lateness:
                return static_cast<qlonglong>(r.lateness_ns);
            default:
                return {};
        }
    }
    if (role == Qt::DisplayRole) {
        return formatDuration(
            static_cast<double>(index.column() == WaitCaused ? r.wait_caused_ns : r.lateness_ns));
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && r.rank == report_.slowest_rank) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    return {};
}

QVariant StragglerTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
        case Rank:
            return tr("Rank");
        case Collectives:
            return tr("Collectives");
        case TimesLast:
            return tr("Times last");
        case WaitCaused:
            return tr("Wait caused");
        case Lateness:
            return tr("Lateness (sum)");
        default:
            return {};
    }
}

StragglerPanel::StragglerPanel(QWidget* parent)
    : QWidget(parent),
      model_(new StragglerTableModel(this)),
      summary_(new QLabel(this)),
      table_(new QTableView(this)) {
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(StragglerTableModel::SortRole);
    table_->setModel(proxy);
    table_->setSortingEnabled(true);
    table_->sortByColumn(StragglerTableModel::WaitCaused, Qt::DescendingOrder);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setToolTip(
        tr("Double-click a rank to show its lanes on the timeline, the others "
           "folded"));
    connect(table_, &QTableView::activated, this, [this](const QModelIndex& index) {
        emit rankActivated(index.sibling(index.row(), StragglerTableModel::Rank)
                               .data(StragglerTableModel::SortRole)
                               .toInt());
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    setVisible(false);
}

QString StragglerPanel::summary() const {
    const auto& report = model_->report();
    if (report.slowest_rank < 0) {
        return tr("Stragglers: %1 collectives matched across ranks; no rank kept another waiting")
            .arg(report.collectives.size());
    }
    return tr("Stragglers: %1 collectives matched across ranks; slowest rank %2 (most waiting "
              "caused, %3 of %4)")
        .arg(report.collectives.size())
        .arg(report.slowest_rank)
        .arg(formatDuration(static_cast<double>([&report] {
            for (const auto& r : report.ranks) {
                if (r.rank == report.slowest_rank)
                    return r.wait_caused_ns;
            }
            return std::int64_t{0};
        }())))
        .arg(formatDuration(static_cast<double>(report.total_wait_ns)));
}

void StragglerPanel::setTrace(const profiler::Trace* trace) {
    const bool job = trace != nullptr && profiler::ranks_of(*trace).size() > 1;
    model_->setTrace(job ? trace : nullptr);
    summary_->setText(summary());
    setVisible(job && !model_->report().collectives.empty());
}

}  // namespace trainscope::gui
