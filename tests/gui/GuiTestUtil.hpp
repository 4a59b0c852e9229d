#pragma once

#include <QImage>
#include <QSet>
#include <string>

#include "profiler/trace/Trace.hpp"

namespace trainscope::gui::testing {

inline int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < img.height(); y += 2) {
        const auto* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < img.width(); x += 2)
            colours.insert(line[x]);
    }
    return static_cast<int>(colours.size());
}

// One GPU stream lane with kernels [start, end) named `name`, plus an API call lane.
inline profiler::Activity kernelAt(profiler::Trace& t, profiler::LaneId lane, std::int64_t start,
                                   std::int64_t end, const std::string& name,
                                   std::uint64_t correlation = 0) {
    profiler::Activity a;
    a.kind = profiler::ActivityKind::Kernel;
    a.lane = lane;
    a.device = 0;
    a.start_ns = start;
    a.end_ns = end;
    a.name = t.strings.intern(name);
    a.correlation = correlation;
    t.activities.push_back(a);
    return a;
}

}  // namespace trainscope::gui::testing
