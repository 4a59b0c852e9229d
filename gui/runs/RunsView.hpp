#pragma once

#include <QWidget>
#include <cstdint>
#include <vector>

class QComboBox;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace trainscope::gui {

class LineChart;
class RunsTableModel;

// The runs table (filterable, sortable) above a metric chart.
class RunsView : public QWidget {
    Q_OBJECT
  public:
    explicit RunsView(RunsTableModel* model, QWidget* parent = nullptr);

    [[nodiscard]] std::vector<std::int64_t> selectedRunIds() const;
    [[nodiscard]] QTableView* table() const { return table_; }
    [[nodiscard]] LineChart* chart() const { return chart_; }
    void selectRun(std::int64_t run_id);
    void setDark(bool dark);

  signals:
    void selectionChanged(const std::vector<std::int64_t>& run_ids);

  private slots:
    void modelReset();
    void updateChart();

  private:
    RunsTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
    QComboBox* metric_;
    QComboBox* x_axis_;
    QComboBox* group_;
    LineChart* chart_;
};

}  // namespace trainscope::gui
