#pragma once

#include <QWidget>
#include <cstdint>

class QLabel;
class QLineEdit;
class QPushButton;
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
    // What the table covers ("run 3", "range 1.2 ms – 4.5 ms"); a range offers a reset.
    void setScope(const QString& text, bool is_range);

  signals:
    void jumpToActivity(std::uint32_t activity);
    void wholeRunRequested();

  private:
    KernelStatsModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
    QLabel* scope_;
    QPushButton* whole_run_;
};

}  // namespace trainscope::gui
