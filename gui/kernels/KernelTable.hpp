#pragma once

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace trainscope::gui {

class KernelStatsModel;

// One look for every per-kernel table (the Kernels tab, the range panel): sorted by total
// time through the proxy, filtered by `filter` on any column, whole rows selected, the
// name column stretched.
void setUpKernelTable(KernelStatsModel* model, QSortFilterProxyModel* proxy, QTableView* table,
                      QLineEdit* filter);

}  // namespace trainscope::gui
