#pragma once

#include <QString>

namespace trainscope::gui {

// Help › Keyboard shortcuts: every key and mouse action of the window, as an HTML table
// (docs/gui.md lists the same).
QString shortcutsHelpHtml();

}  // namespace trainscope::gui
