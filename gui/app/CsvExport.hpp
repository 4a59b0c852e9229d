#pragma once

#include <QString>

class QAbstractItemModel;
class QTableView;

namespace trainscope::gui {

// RFC 4180 CSV of a model's rows as shown (filtered and sorted), header first. Numeric
// cells are plain numbers (kCsvValueRole); units stay in the header.
QString toCsv(const QAbstractItemModel& model);
// The same for a table view: only the columns it shows, in the model's column order.
QString toCsv(const QTableView& view);
// Write through QSaveFile (temporary file, then rename). Return an error or "".
QString writeCsv(const QAbstractItemModel& model, const QString& path);
QString writeCsv(const QTableView& view, const QString& path);

}  // namespace trainscope::gui
