#pragma once

#include <QWidget>
#include <cstdint>

#include "gui/range/RangeStats.hpp"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace trainscope::gui {

class KernelStatsModel;

// The statistics of the timeline's range selection in a panel of their own: duration,
// activity count, busy time per device and a sortable, filterable per-kernel table.
// Hidden while there is no range.
class RangePanel : public QWidget {
    Q_OBJECT
  public:
    explicit RangePanel(QWidget* parent = nullptr);

    // Computes and shows the statistics of [t0, t1); times read from origin_ns.
    void showRange(const TimelineData& timeline, double t0_ns, double t1_ns,
                   std::int64_t origin_ns);
    // Empties and hides the panel.
    void clear();

    [[nodiscard]] const RangeStats& stats() const { return stats_; }
    [[nodiscard]] KernelStatsModel* model() const { return model_; }
    [[nodiscard]] QTableView* table() const { return table_; }
    [[nodiscard]] QString summaryText() const;

  signals:
    // The panel's close button: the owner clears the range on the timeline.
    void closeRequested();

  private:
    RangeStats stats_;
    KernelStatsModel* model_;
    QSortFilterProxyModel* proxy_;
    QLabel* title_;
    QLabel* summary_;
    QLineEdit* filter_;
    QTableView* table_;
};

}  // namespace trainscope::gui
