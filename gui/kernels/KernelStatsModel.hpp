#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "gui/kernels/KernelStats.hpp"

namespace trainscope::gui {

// Per-kernel statistics: name, category, count, total, mean, min, max, share. Kernel
// names show shortened (display_name), the full name in the tooltip.
class KernelStatsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Name, CategoryColumn, Count, Total, Mean, Min, Max, Share, ColumnCount };
    enum Roles {
        SortRole = Qt::UserRole + 1,  // numbers as numbers
        LongestActivityRole,          // activity index of the longest instance (uint)
        TotalNsRole,
    };

    explicit KernelStatsModel(QObject* parent = nullptr);
    void setStats(std::vector<KernelStat> stats);
    [[nodiscard]] const std::vector<KernelStat>& stats() const { return stats_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    std::vector<KernelStat> stats_;
    std::vector<QString> labels_;  // display_name of each row: kernels shortened
};

}  // namespace trainscope::gui
