#pragma once

#include <QString>

#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"

namespace trainscope::gui {

// The tooltip of a drawn item, as HTML: a folded block's count and span, or an
// activity's full record (short and full name, kind and category, start from the time
// origin and duration to the trace's own precision, lane, launch geometry, copy size and
// throughput, the launching call or the launched work).
QString activityTooltip(const TimelineData& data, const TimelineViewState& state,
                        const DrawItem& item);

}  // namespace trainscope::gui
