// A traced CPU-backend run in every view: its ops are the device's work (coloured by
// category on a device lane, in the Kernels tab and compare's kernel diff), its NVTX
// phases have their rows, and the utilization plot shows how busy its compute thread is.
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QSet>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <optional>
#include <set>

#include "gui/app/MainWindow.hpp"
#include "gui/compare/CompareModels.hpp"
#include "gui/compare/CompareView.hpp"
#include "gui/compare/TraceDiffModel.hpp"
#include "gui/kernels/KernelStatsModel.hpp"
#include "gui/loading/TraceLoader.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "gui/utilization/UtilizationView.hpp"
#include "tests/gui/CpuTraceGenerator.hpp"

using namespace trainscope;
using namespace trainscope::gui;

namespace {

constexpr int kSteps = 12;
constexpr int kEvalBatches = 8;  // CpuTraceShape's default

const TimelineRow* opsRow(const TimelineData& d) {
    for (const TimelineRow& row : d.rows()) {
        if (row.lane_kind == profiler::LaneKind::HostThread)
            return &row;
    }
    return nullptr;
}

}  // namespace

class TestCpuRun : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString db_;
    std::int64_t run_a_ = 0;
    std::int64_t run_b_ = 0;
    LoadedTracePtr trace_;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath(QStringLiteral("cpu.db"));
        std::tie(run_a_, run_b_) = testing::writeCpuDatabase(db_.toStdString(), kSteps);
        trace_ = TraceLoader::loadNow(db_, run_a_);
        QVERIFY(trace_ && trace_->timeline);
        QVERIFY(trace_->timeline->hostOpTrace());
    }

    void opsAreColouredByCategoryOnADeviceLane() {
        const TimelineData& d = *trace_->timeline;
        const TimelineRow* row = opsRow(d);
        QVERIFY(row);
        QCOMPARE(row->label, QStringLiteral("CPU · main thread"));
        QVERIFY(row->device_lane);
        std::set<Category> categories;
        for (const TimelineEvent& e : row->events)
            categories.insert(e.category());
        for (Category c : {Category::Conv, Category::Gemm, Category::Elementwise,
                           Category::Reduction, Category::Optimizer, Category::Memcpy})
            QVERIFY2(categories.count(c) == 1, category_name(c).data());
        QVERIFY(categories.count(Category::HostOp) == 0);

        // Painted: zoomed on one training step, the ops row shows the category colours.
        // Through the compact fields: a loaded run keeps no Activity records.
        std::optional<ActivityCore> step;
        for (std::uint32_t i = 0; i < d.activityCount(); ++i) {
            const ActivityCore a = d.activity(i);
            if (a.kind == profiler::ActivityKind::NvtxRange && d.name(a.name) == "step") {
                step = a;
                break;
            }
        }
        QVERIFY(step);
        const QSize size(1610, 400);
        TimelineViewState s;
        s.mapping = TimeAxisMapping::fit(static_cast<double>(step->start_ns),
                                         static_cast<double>(step->end_ns),
                                         TimelineRenderer::dataWidth(size.width()));
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        std::vector<DrawItem> list;
        {
            QPainter p(&image);
            TimelineRenderer::paint(p, d, s, size, list);
        }
        const int y = TimelineRenderer::rowTop(*row, 0) + TimelineData::kRowHeight / 2 + 6;
        QSet<QRgb> seen;
        for (int x = TimelineRenderer::kLabelWidth; x < size.width(); ++x)
            seen.insert(image.pixelColor(x, y).rgb());
        for (Category c : {Category::Conv, Category::Gemm, Category::Elementwise,
                           Category::Reduction, Category::Optimizer})
            QVERIFY2(seen.contains(category_color(c).rgb()), category_name(c).data());
    }

    void nvtxPhasesHaveTheirOwnRowsAboveTheOps() {
        const TimelineData& d = *trace_->timeline;
        std::map<int, std::map<QString, int>> names_by_depth;
        int first_nvtx = -1;
        int first_ops = -1;
        for (int r = 0; r < static_cast<int>(d.rows().size()); ++r) {
            const TimelineRow& row = d.rows()[static_cast<std::size_t>(r)];
            if (row.lane_kind == profiler::LaneKind::Nvtx) {
                QVERIFY(row.device_lane);
                if (first_nvtx < 0)
                    first_nvtx = r;
                for (const TimelineEvent& e : row.events)
                    ++names_by_depth[row.depth][d.name(e.name)];
            } else if (first_ops < 0) {
                first_ops = r;
            }
        }
        QCOMPARE(first_nvtx, 0);  // the device's lanes come first, annotations on top
        QVERIFY(first_ops > first_nvtx);
        QCOMPARE(d.rows()[0].label, QStringLiteral("NVTX · main thread"));
        QCOMPARE(names_by_depth[0][QStringLiteral("epoch")], 1);
        QCOMPARE(names_by_depth[0][QStringLiteral("evaluation")], 1);
        QCOMPARE(names_by_depth[1][QStringLiteral("step")], kSteps);
        for (const char* phase : {"data load", "forward", "backward", "optimizer"})
            QCOMPARE(names_by_depth[2][QString::fromLatin1(phase)], kSteps);
        QCOMPARE(trace_->steps, std::int64_t(kSteps));
    }

    void utilizationShowsTheComputeThreadBusy() {
        const TimelineData& d = *trace_->timeline;
        const auto& busy = d.computeThreadBusy();
        QCOMPARE(busy.thread_count(), 1);
        // Ops follow each other a few microseconds apart: nearly always busy.
        const double share =
            busy.busy_share(static_cast<double>(d.beginNs()), static_cast<double>(d.endNs()));
        QVERIFY2(share > 0.9 && share < 1.0, QByteArray::number(share));
        QVERIFY(d.deviceBusy().empty());  // no GPU track

        UtilizationView view;
        view.setData(trace_->timeline);
        QCOMPARE(view.trackCount(), 1);
        const QSize size(1210, view.sizeHint().height());
        view.setMapping(TimeAxisMapping::fit(static_cast<double>(d.beginNs()),
                                             static_cast<double>(d.endNs()),
                                             TimelineRenderer::dataWidth(size.width())));
        const QImage image = view.renderImage(size);
        // The busy fill (green) covers most of the plot halfway up, where 50 % is.
        int filled = 0;
        const int y = UtilizationView::kTrackHeight / 2;
        for (int x = TimelineRenderer::kLabelWidth + 20; x < size.width() - 20; ++x) {
            const QColor c = image.pixelColor(x, y);
            filled += c.green() > c.blue() + 40 ? 1 : 0;
        }
        QVERIFY2(filled > (size.width() - TimelineRenderer::kLabelWidth - 40) * 8 / 10,
                 QByteArray::number(filled));
    }

    void kernelsTabListsOpsByNameAndCategory() {
        MainWindow window;
        QVERIFY(window.openDatabase(db_));
        QVERIFY(window.loadTraceNow(run_a_));
        const KernelStatsModel* m = window.kernelModel();
        std::map<QString, std::pair<QString, qint64>> rows;
        for (int r = 0; r < m->rowCount(); ++r) {
            rows[m->index(r, KernelStatsModel::Name).data().toString()] = {
                m->index(r, KernelStatsModel::CategoryColumn).data().toString(),
                m->index(r, KernelStatsModel::Count).data().toLongLong()};
        }
        using Row = std::pair<QString, qint64>;
        QCOMPARE(rows[QStringLiteral("conv_fwd")],
                 Row(QStringLiteral("conv"), kSteps + kEvalBatches));
        QCOMPARE(rows[QStringLiteral("conv_bwd_filter")], Row(QStringLiteral("conv"), kSteps));
        QCOMPARE(rows[QStringLiteral("gemm")],
                 Row(QStringLiteral("gemm"), 3 * kSteps + kEvalBatches));
        QCOMPARE(rows[QStringLiteral("adam_update")], Row(QStringLiteral("optimizer"), 4 * kSteps));
        QCOMPARE(rows[QStringLiteral("max_pool_bwd")], Row(QStringLiteral("reduction"), kSteps));
        QCOMPARE(rows[QStringLiteral("relu_fwd")].first, QStringLiteral("elementwise"));
        QCOMPARE(rows[QStringLiteral("copy_h2d")].first, QStringLiteral("memcpy"));
    }

    void compareFillsTheKernelDiffPerStep() {
        MainWindow window;
        QVERIFY(window.openDatabase(db_));
        CompareView* compare = window.compareView();
        compare->setRuns(run_a_, run_b_);
        compare->loadKernelDiffNow();
        const auto* diff = compare->kernelTable()->model();
        QVERIFY(diff->rowCount() >= 10);
        QVERIFY(diff->headerData(TraceDiffModel::TotalA, Qt::Horizontal)
                    .toString()
                    .contains(QLatin1String("per step")));
        // Per step means the steps' work: the evaluation forwards after training (and the
        // set-up copies before it) are left out, so a conv_fwd runs once a step.
        int conv_row = -1;
        for (int r = 0; r < diff->rowCount(); ++r) {
            if (diff->index(r, TraceDiffModel::Name).data().toString() == QLatin1String("conv_fwd"))
                conv_row = r;
        }
        QVERIFY(conv_row >= 0);
        QCOMPARE(diff->index(conv_row, TraceDiffModel::CountA).data().toLongLong(), qint64(kSteps));
        bool said_cpu = false;
        for (const QLabel* label : compare->findChildren<QLabel*>())
            said_cpu = said_cpu ||
                       label->text().startsWith(QLatin1String("CPU op time per training step"));
        QVERIFY(said_cpu);
    }
};

QTEST_MAIN(TestCpuRun)
#include "tst_cpu_run.moc"
