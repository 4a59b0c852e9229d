#include "gui/common/MetricText.hpp"

#include <QLocale>
#include <cmath>

#include "reports/metrics/MetricCatalog.hpp"

namespace trainscope::gui {

QString displayNumber(double value) {
    const double a = std::abs(value);
    const int decimals = a >= 1000 || a == std::floor(a) ? 0 : (a >= 10 ? 2 : 3);
    // English grouping whatever the system locale: the table mixes with CSV and logs.
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale.toString(value, 'f', decimals);
}

QString plainNumber(double value) {
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QString metricLabel(const std::string& tag, const std::string& stored_unit) {
    return QString::fromStdString(reports::metric_label(tag, stored_unit));
}

QString metricToolTip(const std::string& tag) {
    const reports::MetricInfo* info = reports::find_metric_info(tag);
    if (info == nullptr)
        return QString::fromStdString(tag);
    QString text = QString::fromUtf8(info->description.data(),
                                     static_cast<qsizetype>(info->description.size()));
    const std::string_view direction = reports::to_string(info->direction);
    if (!direction.empty()) {
        QString d = QString::fromLatin1(direction.data(), static_cast<qsizetype>(direction.size()));
        d[0] = d[0].toUpper();
        text += QStringLiteral("\n%1.").arg(d);
    }
    return text + QStringLiteral("\nStored as %1.").arg(QString::fromStdString(tag));
}

}  // namespace trainscope::gui
