#include "gui/app/CsvExport.hpp"

#include <QAbstractItemModel>
#include <QSaveFile>

namespace trainscope::gui {

namespace {
QString quote(QString field) {
    if (field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"')) ||
        field.contains(QLatin1Char('\n')) || field.contains(QLatin1Char('\r'))) {
        field.replace(QStringLiteral("\""), QStringLiteral("\"\""));
        return QStringLiteral("\"%1\"").arg(field);
    }
    return field;
}
}  // namespace

QString toCsv(const QAbstractItemModel& model) {
    QString out;
    const int cols = model.columnCount();
    for (int c = 0; c < cols; ++c) {
        if (c > 0)
            out += QLatin1Char(',');
        out += quote(model.headerData(c, Qt::Horizontal).toString());
    }
    out += QStringLiteral("\r\n");
    for (int r = 0; r < model.rowCount(); ++r) {
        for (int c = 0; c < cols; ++c) {
            if (c > 0)
                out += QLatin1Char(',');
            out += quote(model.index(r, c).data().toString());
        }
        out += QStringLiteral("\r\n");
    }
    return out;
}

QString writeCsv(const QAbstractItemModel& model, const QString& path) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    file.write(toCsv(model).toUtf8());
    if (!file.commit())
        return file.errorString();
    return {};
}

}  // namespace trainscope::gui
