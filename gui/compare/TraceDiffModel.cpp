#include "gui/compare/TraceDiffModel.hpp"

#include <QBrush>
#include <iterator>

#include "gui/app/Theme.hpp"
#include "gui/common/ExportRole.hpp"
#include "gui/common/MetricText.hpp"
#include "gui/timeline/TimeFormat.hpp"

namespace trainscope::gui {

namespace {
QString latin1(std::string_view text) {
    return QString::fromLatin1(text.data(), static_cast<qsizetype>(text.size()));
}
QString signedDuration(double ns) {
    return (ns > 0 ? QStringLiteral("+") : QString()) + formatDuration(ns);
}
}  // namespace

TraceDiffModel::TraceDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void TraceDiffModel::setDiff(profiler::TraceDiff diff) {
    beginResetModel();
    diff_ = std::move(diff);
    endResetModel();
}

void TraceDiffModel::clear() {
    setDiff({});
}

int TraceDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(diff_.rows.size());
}
int TraceDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TraceDiffModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const profiler::TraceDiffRow& r = diff_.rows[static_cast<std::size_t>(index.row())];
    const auto change = static_cast<double>(r.change_ns());
    const auto relative = r.relative();
    const int column = index.column();
    if (role == Qt::TextAlignmentRole && column >= CountA)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ForegroundRole && (column == Change || column == Relative) && change != 0)
        return QBrush(change > 0 ? Theme::worse : Theme::better);
    if (role == Qt::ToolTipRole && column == Name)
        return tr("%1\n%2 recorded name(s) compared as this one")
            .arg(QString::fromStdString(r.name))
            .arg(r.variants);
    const bool sort = role == SortRole;
    const bool csv = role == kCsvValueRole;
    if (!sort && !csv && role != Qt::DisplayRole)
        return {};
    // Durations: numbers (ns) to sort and export, words to read.
    const auto duration = [&](double ns) {
        return sort ? QVariant(ns) : csv ? QVariant(plainNumber(ns)) : QVariant(formatDuration(ns));
    };
    switch (static_cast<Column>(column)) {
        case Kind:
            return latin1(profiler::to_string(r.subject));
        case Name:
            return QString::fromStdString(r.name);
        case Category:
            return latin1(profiler::to_string(r.category));
        case Status:
            return latin1(profiler::to_string(r.presence()));
        case CountA:
            return QVariant::fromValue<qint64>(r.a.count);
        case CountB:
            return QVariant::fromValue<qint64>(r.b.count);
        case SelfA:
            return duration(r.a.self_time_ns);
        case SelfB:
            return duration(r.b.self_time_ns);
        case TotalA:
            return duration(r.a.time_ns);
        case TotalB:
            return duration(r.b.time_ns);
        case MeanA:
        case MeanB: {
            // Empty for a name the side lacks, not "0 ns".
            const auto mean = (column == MeanA ? r.a : r.b).mean_ns();
            return mean ? duration(*mean) : sort ? QVariant() : QVariant(QString());
        }
        case Change:
            return sort || csv ? duration(change) : QVariant(signedDuration(change));
        case Relative:
            if (!relative)
                // No change to measure against: "new" only for a name A lacks (a name
                // that ran in A for 0 ns is in both).
                return sort || csv ? (sort ? QVariant(0.0) : QVariant(QString()))
                       : r.presence() == profiler::DiffPresence::New ? QVariant(tr("new"))
                                                                     : QVariant(QString());
            if (sort)
                return *relative;
            if (csv)
                return plainNumber(*relative * 100);
            return QStringLiteral("%1%2 %")
                .arg(*relative > 0 ? QStringLiteral("+") : QString())
                .arg(*relative * 100, 0, 'f', 1);
        case ColumnCount:
            break;
    }
    return {};
}

QVariant TraceDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* kNames[] = {"kind",    "name",   "category", "status",  "count A",
                                   "count B", "self A", "self B",   "total A", "total B",
                                   "mean A",  "mean B", "B − A",    "change"};
    static_assert(std::size(kNames) == ColumnCount);
    QString name = tr(kNames[section]);
    if (diff_.per_step && section == SelfA)
        name = tr("self A per step");
    else if (diff_.per_step && section == SelfB)
        name = tr("self B per step");
    else if (diff_.per_step && section == TotalA)
        name = tr("A per step");
    else if (diff_.per_step && section == TotalB)
        name = tr("B per step");
    else if (diff_.per_step && section == Change)
        name = tr("B − A per step");
    if (role == kCsvValueRole && section >= SelfA)
        return name + (section == Relative ? QStringLiteral(" (%)") : QStringLiteral(" (ns)"));
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    return name;
}

}  // namespace trainscope::gui
