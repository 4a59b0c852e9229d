#include "gui/compare/CompareModels.hpp"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <cmath>
#include <map>

#include "gui/app/Theme.hpp"
#include "gui/common/ExportRole.hpp"
#include "gui/common/MetricText.hpp"
#include "gui/runs/MetricChartData.hpp"
#include "reports/metrics/MetricCatalog.hpp"

namespace trainscope::gui {

namespace {
QVariant right_aligned() {
    return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
}
QString number(double v) {
    return displayNumber(v);
}
}  // namespace

CompareMetricsModel::CompareMetricsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareMetricsModel::setRuns(const reports::RunRecord* a, const reports::RunRecord* b) {
    beginResetModel();
    rows_.clear();
    comparison_ = {};
    if (a != nullptr && b != nullptr && a->id == b->id)
        a = b = nullptr;  // a run against itself says nothing: no table of zeros
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
    if (a && b)
        comparison_ = reports::compare_pair(*a, *b);
    for (auto& [name, row] : by_name) {
        if (row.a && row.b)
            row.judgement = reports::judge_metric(name, *row.a, *row.b, comparison_);
        rows_.push_back(row);
    }
    // The catalog's order: throughput and step time first.
    std::stable_sort(rows_.begin(), rows_.end(), [](const Row& x, const Row& y) {
        return reports::metric_rank(x.name) < reports::metric_rank(y.name);
    });
    endResetModel();
}

QString CompareMetricsModel::summary() const {
    if (!comparison_.step_time)
        return tr("No step-time verdict: a run lacks step statistics (mean, stdev, count).");
    const auto ratio = [](const reports::Comparison& c) {
        return QStringLiteral("%1× [%2, %3]")
            .arg(c.speedup, 0, 'f', 3)
            .arg(c.speedup_ci_low, 0, 'f', 3)
            .arg(c.speedup_ci_high, 0, 'f', 3);
    };
    const auto verdict = [](reports::Verdict v) {
        return QString::fromStdString(reports::to_string(v));
    };
    const reports::Comparison& steps = *comparison_.step_time;
    QString text = tr("Step time, B against A: %1, speed-up %2 (95 % CI; same within ±%3 %), "
                      "the verdict of trainscope compare with A as the baseline.")
                       .arg(verdict(steps.verdict), ratio(steps))
                       .arg(reports::kDefaultSameWithin * 100, 0, 'g', 3);
    // With another batch the step time and the throughput can disagree: say both.
    const auto& images = comparison_.throughput;
    if (images && std::abs(images->speedup - steps.speedup) > 1e-9 * steps.speedup)
        text += tr(" Throughput at the other batch: %1, %2.")
                    .arg(verdict(images->verdict), ratio(*images));
    return text;
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
    const reports::Judgement judgement = r.judgement.judgement;
    switch (role) {
        case VerdictRole:
            return static_cast<int>(judgement);
        case TestedRole:
            return r.judgement.tested;
        case TagRole:
            return QString::fromStdString(r.name);
        case Qt::TextAlignmentRole:
            if (index.column() != Metric && index.column() != VerdictColumn)
                return right_aligned();
            return {};
        case Qt::ForegroundRole:
            if (index.column() != VerdictColumn && index.column() != Relative)
                return {};
            if (judgement == reports::Judgement::Better)
                return QBrush(r.judgement.tested ? Theme::better : Theme::better.darker(130));
            if (judgement == reports::Judgement::Worse)
                return QBrush(r.judgement.tested ? Theme::worse : Theme::worse.darker(130));
            return {};
        case Qt::ToolTipRole:
            if (index.column() == Metric)
                return metricToolTip(r.name);
            if (index.column() != VerdictColumn || judgement == reports::Judgement::NotJudged)
                return {};
            if (r.judgement.tested)
                return summary();
            return tr("By the direction alone (%1): this metric has no noise estimate, so the "
                      "difference may be noise.")
                .arg(QString::fromLatin1(
                    reports::to_string(reports::find_metric_info(r.name)->direction).data()));
        case Qt::DisplayRole:
        case SortRole:
        case kCsvValueRole:
            break;
        default:
            return {};
    }
    const bool sort = role == SortRole;
    const bool csv = role == kCsvValueRole;
    const auto value = [&](double v) {
        return sort ? QVariant(v) : QVariant(csv ? plainNumber(v) : number(v));
    };
    switch (static_cast<Column>(index.column())) {
        case Metric:
            if (sort)
                return static_cast<qlonglong>(reports::metric_rank(r.name));
            return metricLabel(r.name, r.unit);
        case A:
            return r.a ? value(*r.a) : QVariant();
        case B:
            return r.b ? value(*r.b) : QVariant();
        case Diff:
            if (!both)
                return {};
            if (sort || csv)
                return value(diff);
            return (diff > 0 ? QStringLiteral("+") : QString()) + number(diff);
        case Relative:
            if (!both)
                return {};
            if (sort || csv)
                return value(rel * 100);
            return QStringLiteral("%1%2 %")
                .arg(rel > 0 ? QStringLiteral("+") : QString())
                .arg(rel * 100, 0, 'f', 1);
        case VerdictColumn: {
            if (sort)
                return static_cast<int>(judgement);
            const QString word = QString::fromLatin1(reports::to_string(judgement).data());
            if (word.isEmpty() || r.judgement.tested || judgement == reports::Judgement::Same)
                return word;
            return tr("%1 (direction only)").arg(word);
        }
        case ColumnCount:
            break;
    }
    return {};
}

QVariant CompareMetricsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* kNames[] = {"metric", "run A", "run B", "B − A", "change (%)", "B is"};
    return section >= 0 && section < ColumnCount ? QVariant(tr(kNames[section])) : QVariant();
}

}  // namespace trainscope::gui
