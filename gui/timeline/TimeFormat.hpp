#pragma once

#include <QString>
#include <cstdint>

namespace trainscope::gui {

// "12.5 ms", "840 ns", "3.20 s": three significant digits in the fitting unit.
QString formatDuration(double ns);
// A tick label for time t with ticks `step` apart: enough decimals to tell ticks apart.
QString formatTick(double t_ns, double step_ns);
QString formatBytes(double bytes);
// A time or duration to the trace's own precision: every digit down to resolution_ns
// (1: "145.612345 ms"; 1000: "145.612 ms"), in the unit that fits the magnitude.
QString formatTimeExact(std::int64_t ns, std::int64_t resolution_ns = 1);
// The 1-2-5 step at least min_ns long.
double niceStep(double min_ns);

}  // namespace trainscope::gui
