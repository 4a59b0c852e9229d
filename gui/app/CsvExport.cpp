#include "gui/app/CsvExport.hpp"

#include <QAbstractItemModel>
#include <QSaveFile>
#include <QTableView>
#include <functional>

#include "gui/common/ExportRole.hpp"

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

QString cell(const QModelIndex& index) {
    const QVariant plain = index.data(kCsvValueRole);
    return plain.isValid() ? plain.toString() : index.data().toString();
}

QString header(const QAbstractItemModel& model, int column) {
    const QVariant plain = model.headerData(column, Qt::Horizontal, kCsvValueRole);
    return plain.isValid() ? plain.toString() : model.headerData(column, Qt::Horizontal).toString();
}

QString csv(const QAbstractItemModel& model, const std::function<bool(int)>& shown) {
    QString out;
    const int cols = model.columnCount();
    bool first = true;
    for (int c = 0; c < cols; ++c) {
        if (!shown(c))
            continue;
        if (!first)
            out += QLatin1Char(',');
        first = false;
        out += quote(header(model, c));
    }
    out += QStringLiteral("\r\n");
    for (int r = 0; r < model.rowCount(); ++r) {
        first = true;
        for (int c = 0; c < cols; ++c) {
            if (!shown(c))
                continue;
            if (!first)
                out += QLatin1Char(',');
            first = false;
            out += quote(cell(model.index(r, c)));
        }
        out += QStringLiteral("\r\n");
    }
    return out;
}

QString save(const QString& text, const QString& path) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    file.write(text.toUtf8());
    if (!file.commit())
        return file.errorString();
    return {};
}
}  // namespace

QString toCsv(const QAbstractItemModel& model) {
    return csv(model, [](int) { return true; });
}

QString toCsv(const QTableView& view) {
    return csv(*view.model(), [&view](int c) { return !view.isColumnHidden(c); });
}

QString writeCsv(const QAbstractItemModel& model, const QString& path) {
    return save(toCsv(model), path);
}

QString writeCsv(const QTableView& view, const QString& path) {
    return save(toCsv(view), path);
}

}  // namespace trainscope::gui
