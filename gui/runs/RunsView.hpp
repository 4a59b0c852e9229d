#pragma once

#include <QWidget>
#include <cstdint>
#include <vector>

class QComboBox;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QTableView;

namespace trainscope::gui {

class LineChart;
class RunsTableModel;

// The runs table (filterable, sortable, columns chosen from the header's context menu and
// remembered in QSettings) above a metric chart.
class RunsView : public QWidget {
    Q_OBJECT
  public:
    explicit RunsView(RunsTableModel* model, QWidget* parent = nullptr);

    [[nodiscard]] std::vector<std::int64_t> selectedRunIds() const;
    [[nodiscard]] QTableView* table() const { return table_; }
    [[nodiscard]] LineChart* chart() const { return chart_; }
    void selectRun(std::int64_t run_id);
    void setDark(bool dark);
    // The column chooser: one checkable action per column (the header's context menu).
    [[nodiscard]] QMenu* columnMenu();
    // Show or hide the column with this key (RunsTableModel::ColumnKeyRole) and
    // remember the choice.
    void setColumnShown(const QString& key, bool shown);
    [[nodiscard]] bool isColumnShown(const QString& key) const;
    // Forget the choices: the catalog's important columns only.
    void resetColumns();
    // The chart's metric (tag) and axes, e.g. for tests and screenshots.
    void setChartMetric(const QString& tag);

  signals:
    void selectionChanged(const std::vector<std::int64_t>& run_ids);

  private slots:
    void modelReset();
    void updateChart();

  private:
    void applyColumnChoices();
    [[nodiscard]] int columnOfKey(const QString& key) const;

    RunsTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
    QComboBox* metric_;
    QComboBox* x_axis_;
    QComboBox* group_;
    LineChart* chart_;
    QMenu* column_menu_ = nullptr;
};

}  // namespace trainscope::gui
