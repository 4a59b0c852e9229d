// The Kernels tab: statistics per kernel name over a trace or a range of it, merged over
// runs, their table model, and the category a kernel's name gives.
#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>
#include <algorithm>

#include "gui/kernels/KernelStats.hpp"
#include "gui/kernels/KernelStatsModel.hpp"
#include "gui/timeline/KernelCategory.hpp"
#include "tests/gui/GuiTestUtil.hpp"

using namespace trainscope;
using namespace trainscope::gui;

class TestKernelStats : public QObject {
    Q_OBJECT

  private slots:
    void kernelStatsAndModel() {
        profiler::Trace t;
        t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 1, "s7"});
        testing::kernelAt(t, 0, 0, 100, "ampere_sgemm_128x64_tn");
        testing::kernelAt(t, 0, 200, 500, "ampere_sgemm_128x64_tn");
        testing::kernelAt(t, 0, 600, 700, "relu_kernel");
        const auto d = TimelineData::build(std::move(t));
        const auto stats = computeKernelStats(*d);
        QCOMPARE(stats.size(), std::size_t(2));
        QCOMPARE(stats[0].name, QStringLiteral("ampere_sgemm_128x64_tn"));
        QCOMPARE(stats[0].count, std::int64_t(2));
        QCOMPARE(stats[0].total_ns, std::int64_t(400));
        QCOMPARE(stats[0].min_ns, std::int64_t(100));
        QCOMPARE(stats[0].max_ns, std::int64_t(300));
        QCOMPARE(stats[0].mean_ns(), 200.0);
        QCOMPARE(stats[0].share, 0.8);
        QCOMPARE(stats[0].category, Category::Gemm);
        QCOMPARE(d->activity(stats[0].longest).start_ns, std::int64_t(200));
        QCOMPARE(stats[1].category, Category::Elementwise);
        // A range selection: only the work that starts inside it.
        const auto range = computeKernelStats(*d, 150, 650);
        QCOMPARE(range.size(), std::size_t(2));
        QCOMPARE(range[0].count, std::int64_t(1));
        QCOMPARE(range[0].total_ns, std::int64_t(300));
        QCOMPARE(range[1].total_ns, std::int64_t(100));
        QCOMPARE(range[0].share, 0.75);
        // Several runs together: counts and times add, min/max span, longest only from the first.
        KernelStat other;
        other.name = QStringLiteral("relu_kernel");
        other.count = 3;
        other.total_ns = 900;
        other.min_ns = 50;
        other.max_ns = 500;
        other.longest = 7;
        KernelStat only_other = other;
        only_other.name = QStringLiteral("new_kernel");
        const std::vector<KernelStat> second = {other, only_other};
        const auto merged = mergeKernelStats({&stats, &second});
        QCOMPARE(merged.size(), std::size_t(3));
        const auto relu = std::find_if(merged.begin(), merged.end(), [](const KernelStat& k) {
            return k.name == QLatin1String("relu_kernel");
        });
        QCOMPARE(relu->count, std::int64_t(4));
        QCOMPARE(relu->total_ns, std::int64_t(1000));
        QCOMPARE(relu->min_ns, std::int64_t(50));
        QCOMPARE(relu->max_ns, std::int64_t(500));
        QCOMPARE(relu->longest, stats[1].longest);
        const auto fresh = std::find_if(merged.begin(), merged.end(), [](const KernelStat& k) {
            return k.name == QLatin1String("new_kernel");
        });
        QCOMPARE(fresh->longest, kNoActivity);
        QCOMPARE(merged[0].total_ns, std::int64_t(1000));
        QCOMPARE(merged[0].share, 1000.0 / 2300.0);

        KernelStatsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setStats(stats);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(KernelStatsModel::SortRole);
        QAbstractItemModelTester proxy_tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(KernelStatsModel::Total, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, KernelStatsModel::Name).data().toString(),
                 QStringLiteral("relu_kernel"));
        QCOMPARE(proxy.index(1, KernelStatsModel::Share).data().toString(),
                 QStringLiteral("80.0 %"));
        QCOMPARE(proxy.index(1, 0).data(KernelStatsModel::LongestActivityRole).toUInt(),
                 stats[0].longest);
    }

    void classifierByName_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("category");
        QTest::newRow("cudnn fprop")
            << "sm80_xmma_fprop_implicit_gemm_tf32f32" << int(Category::Conv);
        QTest::newRow("wgrad") << "sm80_xmma_wgrad_implicit_gemm" << int(Category::Conv);
        QTest::newRow("sgemm") << "ampere_sgemm_128x64_tn" << int(Category::Gemm);
        QTest::newRow("relu") << "vectorized_elementwise_kernel<relu>"
                              << int(Category::Elementwise);
        QTest::newRow("reduce") << "at::native::reduce_kernel<512>" << int(Category::Reduction);
        QTest::newRow("adam") << "multi_tensor_apply_kernel<FusedAdamMathFunctor>"
                              << int(Category::Optimizer);
        QTest::newRow("bn") << "cudnn::bn_fw_tr_1C11_kernel_NCHW" << int(Category::Normalization);
        QTest::newRow("unknown") << "my_custom_kernel" << int(Category::OtherKernel);
    }

    void classifierByName() {
        QFETCH(QString, name);
        QFETCH(int, category);
        QCOMPARE(int(classify_kernel_name(name.toStdString())), category);
    }
};

QTEST_MAIN(TestKernelStats)
#include "tst_kernel_stats.moc"
