#include "gui/runs/RunsTableModel.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <QBrush>
#include <QColor>

namespace trainscope::gui {

RunsTableModel::RunsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunsTableModel::setRuns(std::vector<reports::RunRecord> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    axes_.clear();
    metrics_.clear();
    metric_units_.clear();
    // Axes with at least one meaningful value.
    for (const std::string& axis : reports::axis_names()) {
        const bool used = std::any_of(runs_.begin(), runs_.end(), [&](const reports::RunRecord& r) {
            const std::string v = reports::axis_value(r.axes, axis);
            return !v.empty() && v != "n/a";
        });
        if (used)
            axes_.push_back(axis);
    }
    std::map<std::string, std::string> units;
    for (const auto& r : runs_) {
        for (const auto& m : r.metrics)
            units.emplace(m.name, m.unit);
    }
    for (const auto& [name, unit] : units) {
        metrics_.push_back(name);
        metric_units_.push_back(unit);
    }
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
    return parent.isValid() ? 0 : kFixedColumns + static_cast<int>(axes_.size() + metrics_.size());
}

QVariant RunsTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& run = runs_[static_cast<std::size_t>(index.row())];
    const int col = index.column();
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
                return QBrush(QColor(0xe0, 0x40, 0x40));
            if (run.status == reports::RunStatus::Skipped)
                return QBrush(QColor(0x90, 0x90, 0x90));
            return {};
        case Qt::ToolTipRole:
            if (!run.error.empty())
                return QString::fromStdString(run.error);
            return {};
        case Qt::TextAlignmentRole:
            if (col >= kFixedColumns + static_cast<int>(axes_.size()) || col == 0)
                return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
            return {};
        case Qt::DisplayRole:
        case SortRole:
            break;
        default:
            return {};
    }
    if (col == 0)
        return QVariant::fromValue<qint64>(run.id);
    if (col == 1) {
        QString s = QString::fromLatin1(reports::to_string(run.status).data());
        if (role == Qt::DisplayRole && !run.error.empty())
            s += QStringLiteral(": ") + QString::fromStdString(run.error);
        return s;
    }
    const int axis = col - kFixedColumns;
    if (axis < static_cast<int>(axes_.size())) {
        const std::string& name = axes_[static_cast<std::size_t>(axis)];
        const std::string v = reports::axis_value(run.axes, name);
        if (role == SortRole) {
            bool ok = false;
            const double d = QString::fromStdString(v).toDouble(&ok);
            if (ok)
                return d;
        }
        return QString::fromStdString(v);
    }
    const auto& metric = metrics_[static_cast<std::size_t>(axis - static_cast<int>(axes_.size()))];
    const reports::Metric* m = run.find_metric(metric);
    if (!m)
        return role == SortRole ? QVariant(std::numeric_limits<double>::lowest()) : QVariant();
    if (role == SortRole)
        return m->value;
    const double a = std::abs(m->value);
    const int decimals = a >= 1000 || a == std::floor(a) ? 0 : (a >= 10 ? 2 : 3);
    return QString::number(m->value, 'f', decimals);
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const int axis = section - kFixedColumns;
    const int metric = axis - static_cast<int>(axes_.size());
    if (role == MetricNameRole)
        return metric >= 0 ? QString::fromStdString(metrics_[static_cast<std::size_t>(metric)]) : QVariant();
    if (role != Qt::DisplayRole)
        return {};
    if (section == 0)
        return tr("run");
    if (section == 1)
        return tr("status");
    if (metric < 0)
        return QString::fromStdString(axes_[static_cast<std::size_t>(axis)]);
    const auto& unit = metric_units_[static_cast<std::size_t>(metric)];
    QString h = QString::fromStdString(metrics_[static_cast<std::size_t>(metric)]);
    if (!unit.empty())
        h += QStringLiteral(" [%1]").arg(QString::fromStdString(unit));
    return h;
}

}  // namespace trainscope::gui
