#pragma once

#include <QAbstractTableModel>
#include <cstdint>
#include <string>
#include <vector>

#include "reports/store/RunRecord.hpp"

namespace trainscope::gui {

// Every run of a results database: id, status, the axes that vary between runs, every
// metric (the catalog's important ones first, named in words with their unit), the
// axes that are the same for all runs, and the error. Failed runs are red, with their
// error as tooltip; runs measured on a busy machine are amber.
class RunsTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Roles {
        RunIdRole = Qt::UserRole + 1,  // qint64
        StatusRole,                    // "ok" | "failed" | "skipped"
        ErrorRole,                     // the failure message
        SortRole,                      // numbers as numbers, text as text
        MetricNameRole,                // header: the metric tag of a metric column
        ColumnKeyRole,     // header: stable key ("metric:images_per_s", "axis:batch", "run")
        DefaultShownRole,  // header: bool, shown unless the user chose otherwise
    };

    explicit RunsTableModel(QObject* parent = nullptr);

    void setRuns(std::vector<reports::RunRecord> runs);
    [[nodiscard]] const std::vector<reports::RunRecord>& runs() const { return runs_; }
    [[nodiscard]] const reports::RunRecord* runById(std::int64_t id) const;
    [[nodiscard]] const std::vector<std::string>& axisColumns() const { return axes_; }
    [[nodiscard]] const std::vector<std::string>& metricColumns() const { return metrics_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    enum class ColumnKind { Id, Status, Axis, Metric, Error };
    struct Column {
        ColumnKind kind;
        std::string name;
        std::string unit;
        bool shown_by_default = true;
    };
    std::vector<reports::RunRecord> runs_;
    std::vector<std::string> axes_;
    std::vector<std::string> metrics_;
    std::vector<Column> columns_;
};

}  // namespace trainscope::gui
