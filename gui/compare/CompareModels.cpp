#include "gui/compare/CompareModels.hpp"

#include <QBrush>
#include <QColor>
#include <cmath>
#include <map>

#include "gui/runs/MetricChartData.hpp"
#include "gui/timeline/KernelName.hpp"
#include "gui/timeline/TimeFormat.hpp"

namespace trainscope::gui {

Verdict compareIntervals(std::optional<std::pair<double, double>> a,
                         std::optional<std::pair<double, double>> b) {
    if (!a || !b)
        return Verdict::NoInterval;
    const bool overlap = a->first <= b->second && b->first <= a->second;
    return overlap ? Verdict::WithinNoise : Verdict::Significant;
}

namespace {
QVariant right_aligned() {
    return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
}
QString number(double v) {
    const double a = std::abs(v);
    return QString::number(v, 'f', a >= 1000 || a == std::floor(a) ? 0 : (a >= 10 ? 2 : 3));
}
}  // namespace

CompareMetricsModel::CompareMetricsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareMetricsModel::setRuns(const reports::RunRecord* a, const reports::RunRecord* b) {
    beginResetModel();
    rows_.clear();
    std::map<std::string, Row> by_name;
    auto add = [&](const reports::RunRecord* r, bool first) {
        if (!r)
            return;
        for (const auto& m : r->metrics) {
            Row& row = by_name[m.name];
            row.name = m.name;
            row.unit = m.unit;
            (first ? row.a : row.b) = m.value;
        }
    };
    add(a, true);
    add(b, false);
    for (auto& [name, row] : by_name) {
        if (a && b)
            row.verdict = compareIntervals(metricInterval(*a, name), metricInterval(*b, name));
        rows_.push_back(row);
    }
    endResetModel();
}

int CompareMetricsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}
int CompareMetricsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareMetricsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row& r = rows_[static_cast<std::size_t>(index.row())];
    const bool both = r.a && r.b;
    const double diff = both ? *r.b - *r.a : 0.0;
    const double rel = both && *r.a != 0 ? diff / std::abs(*r.a) : 0.0;
    if (role == VerdictRole)
        return static_cast<int>(r.verdict);
    if (role == Qt::TextAlignmentRole && index.column() != Metric &&
        index.column() != VerdictColumn)
        return right_aligned();
    if (role == Qt::ForegroundRole && index.column() == VerdictColumn &&
        r.verdict == Verdict::Significant)
        return QBrush(QColor(0xf0, 0x8c, 0x28));
    if (role == Qt::ToolTipRole && index.column() == VerdictColumn)
        return tr("Significant when the two runs' confidence intervals do not overlap.");
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sort = role == SortRole;
    switch (static_cast<Column>(index.column())) {
        case Metric:
            return QString::fromStdString(r.name) +
                   (r.unit.empty() || sort
                        ? QString()
                        : QStringLiteral(" [%1]").arg(QString::fromStdString(r.unit)));
        case A:
            return r.a ? (sort ? QVariant(*r.a) : QVariant(number(*r.a))) : QVariant();
        case B:
            return r.b ? (sort ? QVariant(*r.b) : QVariant(number(*r.b))) : QVariant();
        case Diff:
            return both ? (sort ? QVariant(diff)
                                : QVariant((diff > 0 ? QStringLiteral("+") : QString()) +
                                           number(diff)))
                        : QVariant();
        case Relative:
            return both ? (sort ? QVariant(rel)
                                : QVariant(QStringLiteral("%1%2 %")
                                               .arg(rel > 0 ? QStringLiteral("+") : QString())
                                               .arg(rel * 100, 0, 'f', 1)))
                        : QVariant();
        case VerdictColumn:
            switch (r.verdict) {
                case Verdict::NoInterval:
                    return tr("no CI");
                case Verdict::WithinNoise:
                    return tr("within noise");
                case Verdict::Significant:
                    return tr("significant");
            }
            return {};
        case ColumnCount:
            break;
    }
    return {};
}

QVariant CompareMetricsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* kNames[] = {"metric", "run A", "run B", "B − A", "change", "verdict"};
    return section >= 0 && section < ColumnCount ? QVariant(tr(kNames[section])) : QVariant();
}

KernelDiffModel::KernelDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelDiffModel::setStats(const std::vector<KernelStat>& a, const std::vector<KernelStat>& b,
                               std::int64_t steps_a, std::int64_t steps_b) {
    beginResetModel();
    rows_.clear();
    per_step_ = steps_a > 0 && steps_b > 0;
    const double da = per_step_ ? static_cast<double>(steps_a) : 1.0;
    const double db = per_step_ ? static_cast<double>(steps_b) : 1.0;
    std::map<QString, Row> by_name;
    for (const auto& s : a) {
        Row& r = by_name[s.name];
        r.name = s.name;
        r.label = display_name(s.name, s.category);
        r.count_a = s.count;
        r.total_a = static_cast<double>(s.total_ns) / da;
    }
    for (const auto& s : b) {
        Row& r = by_name[s.name];
        r.name = s.name;
        r.label = display_name(s.name, s.category);
        r.count_b = s.count;
        r.total_b = static_cast<double>(s.total_ns) / db;
    }
    for (auto& [name, row] : by_name)
        rows_.push_back(row);
    endResetModel();
}

int KernelDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}
int KernelDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelDiffModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row& r = rows_[static_cast<std::size_t>(index.row())];
    const double diff = r.total_b - r.total_a;
    const double rel = r.total_a != 0 ? diff / r.total_a : 0.0;
    if (role == Qt::TextAlignmentRole && index.column() != Name)
        return right_aligned();
    if (role == Qt::ForegroundRole && (index.column() == Diff || index.column() == Relative) &&
        diff != 0)
        return QBrush(diff > 0 ? QColor(0xe0, 0x4a, 0x4a) : QColor(0x3f, 0xb5, 0x6b));
    if (role == Qt::ToolTipRole && index.column() == Name)
        return r.name;
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sort = role == SortRole;
    switch (static_cast<Column>(index.column())) {
        case Name:
            return r.label;
        case CountA:
            return QVariant::fromValue<qint64>(r.count_a);
        case CountB:
            return QVariant::fromValue<qint64>(r.count_b);
        case TotalA:
            return sort ? QVariant(r.total_a) : QVariant(formatDuration(r.total_a));
        case TotalB:
            return sort ? QVariant(r.total_b) : QVariant(formatDuration(r.total_b));
        case Diff:
            return sort ? QVariant(diff)
                        : QVariant((diff > 0 ? QStringLiteral("+") : QString()) +
                                   formatDuration(diff));
        case Relative:
            if (r.total_a == 0)
                return sort ? QVariant(0.0) : QVariant(tr("new"));
            return sort ? QVariant(rel)
                        : QVariant(QStringLiteral("%1%2 %")
                                       .arg(rel > 0 ? QStringLiteral("+") : QString())
                                       .arg(rel * 100, 0, 'f', 1));
        case ColumnCount:
            break;
    }
    return {};
}

QVariant KernelDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* kTotals[] = {"kernel",  "count A", "count B", "total A",
                                    "total B", "B − A",   "change"};
    static const char* kPerStep[] = {"kernel",     "count A",        "count B", "A per step",
                                     "B per step", "B − A per step", "change"};
    return section >= 0 && section < ColumnCount
               ? QVariant(tr(per_step_ ? kPerStep[section] : kTotals[section]))
               : QVariant();
}

}  // namespace trainscope::gui
