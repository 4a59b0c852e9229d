#include "gui/kernels/KernelStatsModel.hpp"

#include <QBrush>

#include "gui/app/Theme.hpp"
#include "gui/common/ExportRole.hpp"
#include "gui/common/MetricText.hpp"
#include "gui/timeline/KernelName.hpp"
#include "gui/timeline/TimeFormat.hpp"

namespace trainscope::gui {

KernelStatsModel::KernelStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelStatsModel::setStats(std::vector<KernelStat> stats) {
    beginResetModel();
    stats_ = std::move(stats);
    labels_.clear();
    labels_.reserve(stats_.size());
    for (const KernelStat& s : stats_)
        labels_.push_back(display_name(s.name, s.category));
    endResetModel();
}

int KernelStatsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(stats_.size());
}

int KernelStatsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {
// CSV cells: durations in ns and the share in percent, as plain numbers.
QVariant csv_value(const KernelStat& s, int column) {
    switch (column) {
        case KernelStatsModel::Total:
            return plainNumber(static_cast<double>(s.total_ns));
        case KernelStatsModel::Mean:
            return plainNumber(s.mean_ns());
        case KernelStatsModel::Min:
            return plainNumber(static_cast<double>(s.min_ns));
        case KernelStatsModel::Max:
            return plainNumber(static_cast<double>(s.max_ns));
        case KernelStatsModel::Share:
            return plainNumber(s.share * 100.0);
        default:
            return {};
    }
}
}  // namespace

QVariant KernelStatsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const KernelStat& s = stats_[static_cast<std::size_t>(index.row())];
    if (role == kCsvValueRole)
        return csv_value(s, index.column());
    const auto cat = category_name(s.category);
    if (role == LongestActivityRole)
        return QVariant::fromValue<uint>(s.longest);
    if (role == TotalNsRole)
        return QVariant::fromValue<qint64>(s.total_ns);
    if (role == Qt::ToolTipRole && index.column() == Name)
        return s.name;
    if (role == Qt::DecorationRole && index.column() == CategoryColumn)
        return category_color(s.category);
    if (role == Qt::TextAlignmentRole && index.column() >= Count)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sort = role == SortRole;
    switch (static_cast<Column>(index.column())) {
        case Name:
            return labels_[static_cast<std::size_t>(index.row())];
        case CategoryColumn:
            return QString::fromLatin1(cat.data(), static_cast<qsizetype>(cat.size()));
        case Count:
            return QVariant::fromValue<qint64>(s.count);
        case Total:
            return sort ? QVariant::fromValue<qint64>(s.total_ns)
                        : QVariant(formatDuration(static_cast<double>(s.total_ns)));
        case Mean:
            return sort ? QVariant(s.mean_ns()) : QVariant(formatDuration(s.mean_ns()));
        case Min:
            return sort ? QVariant::fromValue<qint64>(s.min_ns)
                        : QVariant(formatDuration(static_cast<double>(s.min_ns)));
        case Max:
            return sort ? QVariant::fromValue<qint64>(s.max_ns)
                        : QVariant(formatDuration(static_cast<double>(s.max_ns)));
        case Share:
            return sort ? QVariant(s.share)
                        : QVariant(QStringLiteral("%1 %").arg(s.share * 100.0, 0, 'f', 1));
        case ColumnCount:
            break;
    }
    return {};
}

QVariant KernelStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == kCsvValueRole && section >= Total &&
        section <= Share)
        return headerData(section, orientation, Qt::DisplayRole).toString() +
               (section == Share ? QStringLiteral(" (%)") : QStringLiteral(" (ns)"));
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
        case Name:
            return tr("name");
        case CategoryColumn:
            return tr("category");
        case Count:
            return tr("count");
        case Total:
            return tr("total");
        case Mean:
            return tr("mean");
        case Min:
            return tr("min");
        case Max:
            return tr("max");
        case Share:
            return tr("share");
        case ColumnCount:
            break;
    }
    return {};
}

}  // namespace trainscope::gui
