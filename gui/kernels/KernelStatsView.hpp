#pragma once

#include <QWidget>
#include <cstdint>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace trainscope::gui {

class KernelStatsModel;

// The per-kernel table with a filter; double-click jumps to the longest instance.
class KernelStatsView : public QWidget {
    Q_OBJECT
  public:
    explicit KernelStatsView(KernelStatsModel* model, QWidget* parent = nullptr);
    [[nodiscard]] QTableView* table() const { return table_; }

  signals:
    void jumpToActivity(std::uint32_t activity);

  private:
    KernelStatsModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
};

}  // namespace trainscope::gui
