#pragma once

#include <QString>
#include <optional>

#include "reports/store/SqliteError.hpp"

namespace trainscope::gui {

// Runs `work` and returns the message of an error that a results database can cause
// (reports::StoreError: a foreign, newer or damaged file, a missing run;
// reports::SqliteError: an unreadable file), which the GUI shows to the user. Any other
// exception is a bug and propagates: it must not read like a fault of the user's file.
template <class Work>
std::optional<QString> fileErrorOf(Work&& work) {
    try {
        work();
        return std::nullopt;
    } catch (const reports::StoreError& e) {
        return QString::fromStdString(e.what());
    } catch (const reports::SqliteError& e) {
        return QString::fromStdString(e.what());
    }
}

}  // namespace trainscope::gui
