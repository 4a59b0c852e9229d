#pragma once

#include <string>
#include <string_view>

namespace trainscope::reports {

// Text from a trace or a database made safe to print on a terminal: control characters
// (C0 but tab and newline are turned into a space by callers that need one line, DEL, and
// the C1 range U+0080..U+009F) become visible escapes such as "\x1b", so a kernel or range
// name cannot move the cursor, recolour, retitle or clear the user's terminal. Valid UTF-8
// text is kept as it is.
std::string printable_text(std::string_view text);

}  // namespace trainscope::reports
