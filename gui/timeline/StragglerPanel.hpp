#pragma once

#include <QAbstractTableModel>
#include <QWidget>

#include "profiler/analysis/CollectiveMatching.hpp"

class QLabel;
class QTableView;

namespace trainscope::gui {

// Per rank of a distributed job: collectives joined, times it arrived last, the waiting
// it caused the others, summed lateness; the figures of `trainscope analyze`
// (profiler::analyze_stragglers on the same trace).
class StragglerTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Rank, Collectives, TimesLast, WaitCaused, Lateness, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;  // numbers as numbers (ns for times)

    explicit StragglerTableModel(QObject* parent = nullptr);
    // Recomputes from the trace; nullptr empties the table.
    void setTrace(const profiler::Trace* trace);
    [[nodiscard]] const profiler::StragglerReport& report() const { return report_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    profiler::StragglerReport report_;
};

// The straggler table under the timeline, with the slowest rank named above it; hidden
// for traces of one process or without collectives joined by two ranks.
class StragglerPanel : public QWidget {
    Q_OBJECT
  public:
    explicit StragglerPanel(QWidget* parent = nullptr);
    void setTrace(const profiler::Trace* trace);
    [[nodiscard]] StragglerTableModel* model() const { return model_; }
    [[nodiscard]] QString summary() const;

  signals:
    // A row was activated (double-click, Enter): the timeline shows that rank's lanes.
    void rankActivated(std::int32_t rank);

  private:
    StragglerTableModel* model_;
    QLabel* summary_;
    QTableView* table_;
};

}  // namespace trainscope::gui
