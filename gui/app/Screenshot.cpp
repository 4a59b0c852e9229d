#include "gui/app/Screenshot.hpp"

#include <QApplication>
#include <QImage>

#include "gui/app/MainWindow.hpp"
#include "gui/compare/CompareView.hpp"
#include "gui/runs/RunsTableModel.hpp"
#include "gui/runs/RunsView.hpp"
#include "gui/timeline/TimelineView.hpp"

namespace trainscope::gui {

namespace {

// The views by their --view names.
std::optional<MainWindow::View> view_from_name(const QString& name) {
    if (name == QLatin1String("runs"))
        return MainWindow::View::Runs;
    if (name == QLatin1String("timeline"))
        return MainWindow::View::Timeline;
    if (name == QLatin1String("utilization"))
        return MainWindow::View::Utilization;
    if (name == QLatin1String("kernels"))
        return MainWindow::View::Kernels;
    if (name == QLatin1String("compare"))
        return MainWindow::View::Compare;
    return std::nullopt;
}

}  // namespace

int takeScreenshot(const ScreenshotRequest& request, QString* error) {
    const auto view = view_from_name(request.view);
    if (!view) {
        *error = QStringLiteral("unknown view '%1' (runs, timeline, utilization, kernels, compare)")
                     .arg(request.view);
        return 2;
    }
    MainWindow window;
    QString message;
    window.setErrorSink([&message](const QString& m) { message = m; });
    window.setRememberRecent(false);
    window.setDark(request.dark);
    if (!window.openDatabase(request.database)) {
        *error = message;
        return 2;
    }
    if (request.run) {
        const auto* run = window.runsModel()->runById(*request.run);
        if (!run) {
            *error = QStringLiteral("no run %1 in %2").arg(*request.run).arg(request.database);
            return 2;
        }
        // The runs and compare views need no trace; the others do.
        const bool needs_trace =
            *view != MainWindow::View::Runs && *view != MainWindow::View::Compare;
        if (!window.loadTraceNow(*request.run) && needs_trace) {
            *error = message;
            return 2;
        }
        window.runsView()->selectRun(*request.run);
    } else if (auto id = window.loadFirstTraceNow()) {
        window.runsView()->selectRun(*id);
    }
    if (*view == MainWindow::View::Compare) {
        const auto& runs = window.runsModel()->runs();
        std::vector<std::int64_t> ok;
        for (const auto& r : runs) {
            if (r.status == reports::RunStatus::Ok)
                ok.push_back(r.id);
        }
        if (ok.size() >= 2) {
            window.compareView()->setRuns(ok[0], ok[1]);
            window.compareView()->loadKernelDiffNow();
        }
    }
    window.resize(request.size);
    window.setAttribute(Qt::WA_DontShowOnScreen, true);
    window.show();
    QApplication::processEvents();
    const QImage image = window.renderView(*view, request.size, request.zoom);
    QApplication::processEvents();
    if (image.isNull() || !image.save(request.output, "PNG")) {
        *error = QStringLiteral("cannot write %1").arg(request.output);
        return 2;
    }
    return 0;
}

}  // namespace trainscope::gui
