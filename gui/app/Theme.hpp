#pragma once

class QApplication;

namespace trainscope::gui {

// Fusion style with a dark or a light palette.
void applyPalette(bool dark);

}  // namespace trainscope::gui
