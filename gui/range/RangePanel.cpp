#include "gui/range/RangePanel.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "gui/common/FileErrors.hpp"
#include "gui/kernels/KernelStatsModel.hpp"
#include "gui/kernels/KernelTable.hpp"
#include "gui/timeline/TimeFormat.hpp"

namespace trainscope::gui {

RangePanel::RangePanel(QWidget* parent)
    : QWidget(parent),
      model_(new KernelStatsModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      title_(new QLabel),
      summary_(new QLabel),
      filter_(new QLineEdit),
      table_(new QTableView) {
    setUpKernelTable(model_, proxy_, table_, filter_);
    // The panel is narrow: the less telling columns can be shown by the user.
    for (const int c : {KernelStatsModel::Min, KernelStatsModel::Max})
        table_->setColumnHidden(c, true);
    filter_->setPlaceholderText(tr("Filter kernels…"));

    auto* close = new QToolButton;
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Clear the range (Esc on the timeline)"));
    connect(close, &QToolButton::clicked, this, &RangePanel::closeRequested);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* head = new QHBoxLayout;
    head->addWidget(title_, 1);
    head->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 0, 0);
    layout->addLayout(head);
    layout->addWidget(summary_);
    layout->addWidget(filter_);
    layout->addWidget(table_, 1);
    setMinimumWidth(320);
    hide();
}

void RangePanel::showRange(const TimelineData& timeline, double t0_ns, double t1_ns,
                           std::int64_t origin_ns) {
    // The window's activities are read from the results file: one that went away, or whose
    // run was replaced since the load, is said in the panel.
    if (const auto failed =
            fileErrorOf([&] { stats_ = computeRangeStats(timeline, t0_ns, t1_ns); })) {
        stats_ = {};
        model_->setStats(stats_.kernels);
        title_->setText(tr("Range"));
        summary_->setText(tr("Could not read the range's activities: %1").arg(*failed));
        show();
        return;
    }
    model_->setStats(stats_.kernels);
    const auto origin = static_cast<double>(origin_ns);
    title_->setText(tr("Range %1").arg(formatDuration(stats_.durationNs())));
    title_->setToolTip(
        tr("from %1 to %2").arg(formatDuration(t0_ns - origin), formatDuration(t1_ns - origin)));
    summary_->setText(summaryText());
    show();
}

QString RangePanel::summaryText() const {
    const QString what = stats_.host_ops ? tr("ops") : tr("GPU activities");
    QStringList lines;
    lines << tr("%1 %2 start in it (%3 of work, summed)")
                 .arg(stats_.activity_count)
                 .arg(what, formatDuration(static_cast<double>(stats_.work_ns)));
    const double range = stats_.durationNs();
    const bool ranks = stats_.by_rank;
    for (const RangeBusy& b : stats_.busy) {
        QString device = b.device < 0 ? tr("CPU ops") : tr("GPU %1").arg(b.device);
        if (ranks)
            device = tr("rank %1 · %2").arg(b.rank).arg(device);
        lines << tr("%1 busy %2 (%3 % of the range)")
                     .arg(device, formatDuration(static_cast<double>(b.busy_ns)))
                     .arg(range > 0 ? 100.0 * static_cast<double>(b.busy_ns) / range : 0.0, 0, 'f',
                          1);
    }
    if (stats_.busy.empty())
        lines << tr("no device busy in the range");
    return lines.join(QLatin1Char('\n'));
}

void RangePanel::clear() {
    stats_ = RangeStats{};
    model_->setStats({});
    title_->clear();
    summary_->clear();
    hide();
}

}  // namespace trainscope::gui
