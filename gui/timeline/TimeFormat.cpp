#include "gui/timeline/TimeFormat.hpp"

#include <algorithm>
#include <cmath>

namespace trainscope::gui {

namespace {
struct Unit {
    double ns;
    const char* name;
};
constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1.0, "ns"}};

const Unit& unit_for(double magnitude) {
    for (const Unit& u : kUnits) {
        if (magnitude >= u.ns)
            return u;
    }
    return kUnits[3];
}
}  // namespace

QString formatDuration(double ns) {
    const double a = std::abs(ns);
    const Unit& u = unit_for(a);
    const double v = ns / u.ns;
    const int decimals = std::abs(v) >= 100 ? 0 : (std::abs(v) >= 10 ? 1 : 2);
    return QStringLiteral("%1 %2")
        .arg(v, 0, 'f', u.ns == 1.0 ? 0 : decimals)
        .arg(QString::fromUtf8(u.name));
}

QString formatTick(double t_ns, double step_ns) {
    const Unit& u = unit_for(std::max(std::abs(t_ns), step_ns));
    const double step_in_unit = step_ns / u.ns;
    int decimals = 0;
    while (decimals < 6 && step_in_unit * std::pow(10.0, decimals) < 0.999)
        ++decimals;
    return QStringLiteral("%1 %2")
        .arg(t_ns / u.ns, 0, 'f', decimals)
        .arg(QString::fromUtf8(u.name));
}

QString formatTimeExact(std::int64_t ns, std::int64_t resolution_ns) {
    const std::uint64_t magnitude =
        ns < 0 ? std::uint64_t(0) - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    const Unit& u = unit_for(static_cast<double>(magnitude));
    const auto unit_ns = static_cast<std::uint64_t>(u.ns);
    const auto resolution = static_cast<std::uint64_t>(std::max<std::int64_t>(resolution_ns, 1));
    int decimals = 0;
    for (std::uint64_t r = resolution; r < unit_ns; r *= 10)
        ++decimals;
    QString text = ns < 0 ? QStringLiteral("-") : QString();
    text += QString::number(magnitude / unit_ns);
    if (decimals > 0) {
        std::uint64_t fraction = magnitude % unit_ns;
        std::uint64_t scale = unit_ns;
        for (int d = 0; d < decimals; ++d)
            scale /= 10;
        fraction /= scale;
        text += QStringLiteral(".%1").arg(fraction, decimals, 10, QLatin1Char('0'));
    }
    return text + QStringLiteral(" ") + QString::fromUtf8(u.name);
}

QString formatBytes(double bytes) {
    static const char* kNames[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    while (std::abs(bytes) >= 1024.0 && i < 4) {
        bytes /= 1024.0;
        ++i;
    }
    return QStringLiteral("%1 %2")
        .arg(bytes, 0, 'f', i == 0 ? 0 : 1)
        .arg(QString::fromLatin1(kNames[i]));
}

double niceStep(double min_ns) {
    if (!(min_ns > 0))
        return 1.0;
    const double p = std::pow(10.0, std::floor(std::log10(min_ns)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * p >= min_ns)
            return m * p;
    }
    return 10.0 * p;
}

}  // namespace trainscope::gui
