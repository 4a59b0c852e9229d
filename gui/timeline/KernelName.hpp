#pragma once

#include <QString>

#include "gui/timeline/KernelCategory.hpp"

namespace trainscope::gui {

// True for the categories of kernels (not copies, sets, API calls or host work).
bool is_kernel(Category category);

// The name the GUI shows for an activity: kernels shortened as Nsight Systems does
// (profiler::shorten_kernel_name), everything else as it is. Every view that lists
// kernels (timeline labels, Kernels tab, compare, range panel) calls this one function;
// the full name stays in tooltips and details, and grouping stays by full name.
QString display_name(const QString& full_name, Category category);

}  // namespace trainscope::gui
