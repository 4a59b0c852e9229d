#pragma once

#include <Qt>

namespace trainscope::gui {

// The value of a cell as a CSV file wants it: a plain number (shortest text that reads
// back to the same double, no unit, no thousands separator) where the display role
// formats one for people. Models answer it for their numeric cells; CSV export falls
// back to the display role where a model does not. In headerData it names the column
// with the unit of those numbers ("total (ns)") where the display header does not.
inline constexpr int kCsvValueRole = Qt::UserRole + 100;

}  // namespace trainscope::gui
