#include "gui/app/ShortcutsHelp.hpp"

#include <QObject>

namespace trainscope::gui {

QString shortcutsHelpHtml() {
    return QObject::tr(
        "<table>"
        "<tr><td><b>Ctrl+O</b></td><td>open a results database</td></tr>"
        "<tr><td><b>Ctrl+1…4</b></td><td>Runs, Timeline, Kernels, Compare</td></tr>"
        "<tr><td><b>Ctrl+E / Ctrl+Shift+E</b></td><td>export table as CSV / view as "
        "PNG</td></tr>"
        "<tr><td colspan=2><br><b>Timeline</b></td></tr>"
        "<tr><td><b>Wheel</b></td><td>zoom around the cursor (Shift+wheel scrolls "
        "lanes)</td></tr>"
        "<tr><td><b>Drag</b></td><td>pan</td></tr>"
        "<tr><td><b>Shift+drag</b></td><td>select a range: its statistics in the range "
        "panel</td></tr>"
        "<tr><td><b>W / S, + / −</b></td><td>zoom in / out</td></tr>"
        "<tr><td><b>A / D, ← / →</b></td><td>pan left / right</td></tr>"
        "<tr><td><b>↑ / ↓, PgUp / PgDn</b></td><td>scroll lanes</td></tr>"
        "<tr><td><b>Home</b></td><td>show the whole trace</td></tr>"
        "<tr><td><b>Click</b></td><td>select; on an API call or kernel: flow arrow to its "
        "partner; on a folded block: zoom into it</td></tr>"
        "<tr><td><b>F</b></td><td>follow the flow arrow to its other end</td></tr>"
        "<tr><td><b>R / Shift+R</b></td><td>a distributed job: fold every rank but the "
        "selected event's / unfold all (a click on a rank's header folds it)</td></tr>"
        "<tr><td><b>O / Shift+O</b></td><td>time origin at the selected event (or the "
        "cursor) / reset it</td></tr>"
        "<tr><td><b>Ctrl+F, F3 / Shift+F3</b></td><td>find kernel, next / previous</td></tr>"
        "<tr><td><b>Esc</b></td><td>clear selection and range (hides the range "
        "panel)</td></tr>"
        "<tr><td colspan=2><br><b>Kernels</b></td></tr>"
        "<tr><td><b>Double-click</b></td><td>show the longest instance on the timeline</td></tr>"
        "</table>");
}

}  // namespace trainscope::gui
