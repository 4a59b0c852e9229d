#pragma once

#include <QString>

class QAbstractItemModel;

namespace trainscope::gui {

// RFC 4180 CSV of a model's rows as shown (display role, header first).
QString toCsv(const QAbstractItemModel& model);
// Writes through QSaveFile (temporary file, then rename). Returns an error or "".
QString writeCsv(const QAbstractItemModel& model, const QString& path);

}  // namespace trainscope::gui
