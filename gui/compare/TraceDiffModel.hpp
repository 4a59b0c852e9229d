#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "profiler/analysis/TraceDiff.hpp"

namespace trainscope::gui {

// The rows of profiler::diff_traces for two runs, as `trainscope diff` prints them:
// kernels and operators by name (kernel names normalised), count, self time (without the
// ops nested inside), total (per step when the diff is: the headers say so) and mean time
// of A and B, the change of self time and the relative change. The rows come in the
// function's order (the absolute change, largest first); every column sorts by its value.
class TraceDiffModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Kind,
        Name,
        Category,
        Status,
        CountA,
        CountB,
        SelfA,
        SelfB,
        TotalA,
        TotalB,
        MeanA,
        MeanB,
        Change,
        Relative,
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole + 1 };

    explicit TraceDiffModel(QObject* parent = nullptr);
    void setDiff(profiler::TraceDiff diff);
    void clear();
    [[nodiscard]] const profiler::TraceDiff& diff() const { return diff_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    profiler::TraceDiff diff_;
};

}  // namespace trainscope::gui
