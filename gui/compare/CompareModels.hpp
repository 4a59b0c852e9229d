#pragma once

#include <QAbstractTableModel>
#include <optional>
#include <string>
#include <vector>

#include "reports/metrics/RunComparison.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::gui {

// Metrics of two runs side by side: A, B, B - A, relative change, and whether B is
// better or worse than A by each metric's direction. Mean step time takes the verdict
// of `trainscope compare` (reports::compare_runs, A as the baseline) and throughput the
// same comparison scaled by the batch ratio; the other metrics are judged by their
// direction alone and say so.
class CompareMetricsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Metric, A, B, Diff, Relative, VerdictColumn, ColumnCount };
    enum Roles {
        SortRole = Qt::UserRole + 1,
        VerdictRole,  // int(reports::Judgement)
        TestedRole,   // bool: the verdict accounts for noise
        TagRole,      // the metric tag
    };

    explicit CompareMetricsModel(QObject* parent = nullptr);
    // Nothing is compared when either is missing or both are the same run.
    void setRuns(const reports::RunRecord* a, const reports::RunRecord* b);
    // B against A on the mean step times; nullopt without step statistics.
    [[nodiscard]] const std::optional<reports::Comparison>& stepTimeComparison() const {
        return comparison_.step_time;
    }
    [[nodiscard]] const std::optional<reports::Comparison>& throughputComparison() const {
        return comparison_.throughput;
    }
    // The verdict, the speed-up with its interval and the band; with different batches
    // also the throughput's.
    [[nodiscard]] QString summary() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    struct Row {
        std::string name;
        std::string unit;
        std::optional<double> a;
        std::optional<double> b;
        reports::MetricJudgement judgement;
    };
    std::vector<Row> rows_;
    reports::RunPairComparison comparison_;
};

}  // namespace trainscope::gui
