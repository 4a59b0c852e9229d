// MainWindow's views as images and tables as files: showing a view, rendering it for
// screenshots, exporting the current table as CSV and the current view as PNG.
#include <QApplication>
#include <QFileDialog>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <algorithm>

#include "gui/app/CsvExport.hpp"
#include "gui/app/MainWindow.hpp"
#include "gui/charts/LineChart.hpp"
#include "gui/compare/CompareView.hpp"
#include "gui/kernels/KernelStatsView.hpp"
#include "gui/runs/RunsView.hpp"
#include "gui/timeline/TimelineView.hpp"
#include "gui/utilization/UtilizationView.hpp"

namespace trainscope::gui {

void MainWindow::showView(View view) {
    switch (view) {
        case View::Runs:
            tabs_->setCurrentWidget(runs_view_);
            break;
        case View::Timeline:
        case View::Utilization:
            tabs_->setCurrentWidget(timeline_page_);
            break;
        case View::Kernels:
            tabs_->setCurrentWidget(kernels_view_);
            break;
        case View::Compare:
            tabs_->setCurrentWidget(compare_);
            break;
    }
}

QImage MainWindow::renderView(View view, QSize size, double zoom) {
    showView(view);
    resize(size);
    QApplication::processEvents();
    if (zoom < 1.0)
        timeline_->zoomToFraction(zoom);
    if (view == View::Utilization) {
        const int h = std::max(utilization_->sizeHint().height(), 200);
        UtilizationView standalone;
        standalone.setData(trace_ ? trace_->timeline : nullptr);
        standalone.setDark(dark_);
        standalone.setMapping(
            timeline_->state().mapping.withWidth(std::max(size.width() - 210, 1)));
        return standalone.renderImage(QSize(size.width(), h));
    }
    if (view == View::Timeline) {
        const int util_h = std::min(utilization_->sizeHint().height(), size.height() * 2 / 5);
        timeline_split_->setSizes({size.height() - util_h, util_h});
        QApplication::processEvents();
        if (zoom < 1.0)
            timeline_->zoomToFraction(zoom);
    }
    return grab().toImage();
}

void MainWindow::exportCsv() {
    QTableView* table = nullptr;
    QWidget* current = tabs_->currentWidget();
    if (current == runs_view_)
        table = runs_view_->table();
    else if (current == kernels_view_)
        table = kernels_view_->table();
    else if (current == compare_)
        table = compare_->kernelTable()->hasFocus() ? compare_->kernelTable()
                                                    : compare_->metricsTable();
    if (!table) {
        reportError(tr("The current view has no table: use Runs, Kernels or Compare."));
        return;
    }
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export table as CSV"), QString(), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    const QString error = writeCsv(*table, path);
    if (!error.isEmpty())
        reportError(tr("Cannot write %1: %2").arg(path, error));
}

void MainWindow::exportPng() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export view as PNG"), QString(),
                                                      tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    QWidget* current = tabs_->currentWidget();
    QImage image;
    if (current == runs_view_)
        image = runs_view_->chart()->renderImage(runs_view_->chart()->size() * devicePixelRatio());
    else if (current == timeline_page_)
        image = timeline_split_->grab().toImage();
    else
        image = current->grab().toImage();
    if (!image.save(path, "PNG"))
        reportError(tr("Cannot write %1").arg(path));
}

}  // namespace trainscope::gui
