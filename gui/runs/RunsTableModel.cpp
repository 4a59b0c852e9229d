#include "gui/runs/RunsTableModel.hpp"

#include <QBrush>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "gui/app/Theme.hpp"
#include "gui/common/ExportRole.hpp"
#include "gui/common/MetricText.hpp"
#include "reports/metrics/MetricCatalog.hpp"
#include "reports/quality/MeasurementWarnings.hpp"

namespace trainscope::gui {

RunsTableModel::RunsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunsTableModel::setRuns(std::vector<reports::RunRecord> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    axes_.clear();
    metrics_.clear();
    columns_.clear();
    columns_.push_back({ColumnKind::Id, "run", ""});
    columns_.push_back({ColumnKind::Status, "status", ""});
    // Axes with at least one meaningful value; those that vary come first.
    std::vector<std::string> constant;
    for (const std::string& axis : reports::axis_names()) {
        std::set<std::string> values;
        for (const auto& r : runs_)
            values.insert(reports::axis_value(r.axes, axis));
        values.erase("");
        values.erase("n/a");
        if (values.empty())
            continue;
        axes_.push_back(axis);
        if (values.size() > 1)
            columns_.push_back({ColumnKind::Axis, axis, ""});
        else
            constant.push_back(axis);
    }
    std::map<std::string, std::string> units;
    for (const auto& r : runs_) {
        for (const auto& m : r.metrics)
            units.emplace(m.name, m.unit);
    }
    for (const auto& [name, unit] : units)
        metrics_.push_back(name);
    // The catalog's order puts throughput, step time and accuracy first.
    std::stable_sort(metrics_.begin(), metrics_.end(), [](const auto& a, const auto& b) {
        return reports::metric_rank(a) < reports::metric_rank(b);
    });
    for (const auto& name : metrics_) {
        const reports::MetricInfo* info = reports::find_metric_info(name);
        columns_.push_back({ColumnKind::Metric, name, units[name], info == nullptr || info->key});
    }
    for (const auto& axis : constant)
        columns_.push_back({ColumnKind::Axis, axis, ""});
    const bool any_error = std::any_of(
        runs_.begin(), runs_.end(), [](const reports::RunRecord& r) { return !r.error.empty(); });
    if (any_error)
        columns_.push_back({ColumnKind::Error, "error", ""});
    endResetModel();
}

const reports::RunRecord* RunsTableModel::runById(std::int64_t id) const {
    for (const auto& r : runs_) {
        if (r.id == id)
            return &r;
    }
    return nullptr;
}

int RunsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int RunsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

QVariant RunsTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& run = runs_[static_cast<std::size_t>(index.row())];
    const Column& col = columns_[static_cast<std::size_t>(index.column())];
    const bool failed = run.status == reports::RunStatus::Failed;
    switch (role) {
        case RunIdRole:
            return QVariant::fromValue<qint64>(run.id);
        case StatusRole:
            return QString::fromLatin1(reports::to_string(run.status).data());
        case ErrorRole:
            return QString::fromStdString(run.error);
        case Qt::ForegroundRole:
            if (failed)
                return QBrush(Theme::failed);
            if (run.status == reports::RunStatus::Skipped)
                return QBrush(Theme::skipped);
            // Timings taken on a busy machine or a throttling GPU: amber, reasons as tooltip.
            if (!reports::measurement_warnings(run).empty())
                return QBrush(Theme::warning);
            return {};
        case Qt::ToolTipRole: {
            if (!run.error.empty())
                return QString::fromStdString(run.error);
            QStringList reasons;
            for (const reports::MeasurementWarning& w : reports::measurement_warnings(run))
                reasons << QString::fromStdString(w.text);
            if (!reasons.isEmpty())
                return reasons.join(QLatin1Char('\n'));
            return {};
        }
        case Qt::TextAlignmentRole:
            if (col.kind == ColumnKind::Metric || col.kind == ColumnKind::Id)
                return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
            return {};
        case Qt::DisplayRole:
        case SortRole:
        case kCsvValueRole:
            break;
        default:
            return {};
    }
    switch (col.kind) {
        case ColumnKind::Id:
            return QVariant::fromValue<qint64>(run.id);
        case ColumnKind::Status:
            return QString::fromLatin1(reports::to_string(run.status).data());
        case ColumnKind::Error:
            return QString::fromStdString(run.error);
        case ColumnKind::Axis: {
            const std::string v = reports::axis_value(run.axes, col.name);
            if (role == SortRole) {
                bool ok = false;
                const double d = QString::fromStdString(v).toDouble(&ok);
                if (ok)
                    return d;
            }
            return QString::fromStdString(v);
        }
        case ColumnKind::Metric:
            break;
    }
    const reports::Metric* m = run.find_metric(col.name);
    if (!m)
        return role == SortRole ? QVariant(std::numeric_limits<double>::lowest()) : QVariant();
    if (std::isnan(m->value)) {  // a loss that was not a number: the run diverged
        return role == SortRole ? QVariant(std::numeric_limits<double>::lowest())
                                : QVariant(QString::fromLatin1(reports::kDivergedText.data(),
                                                               reports::kDivergedText.size()));
    }
    if (role == SortRole)
        return m->value;
    if (role == kCsvValueRole)
        return plainNumber(m->value);
    return displayNumber(m->value);
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const Column& col = columns_[static_cast<std::size_t>(section)];
    const bool metric = col.kind == ColumnKind::Metric;
    switch (role) {
        case MetricNameRole:
            return metric ? QVariant(QString::fromStdString(col.name)) : QVariant();
        case ColumnKeyRole:
            return QString::fromStdString((metric                         ? "metric:"
                                           : col.kind == ColumnKind::Axis ? "axis:"
                                                                          : "") +
                                          col.name);
        case DefaultShownRole:
            return col.shown_by_default;
        case Qt::ToolTipRole:
            return metric ? QVariant(metricToolTip(col.name)) : QVariant();
        case Qt::DisplayRole:
            return metric ? metricLabel(col.name, col.unit) : QString::fromStdString(col.name);
        default:
            return {};
    }
}

}  // namespace trainscope::gui
