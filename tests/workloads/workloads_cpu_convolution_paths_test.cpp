// The CPU backend runs fp32 convolutions through oneDNN and fp64 ones through im2col +
// OpenBLAS (whose gradients the fp64 finite-difference checks verify). The two paths must
// agree on every pass, with and without bias, over the shapes the models use: stride 1
// and 2, padding, 1x1 shortcuts, and few-channel inputs that stay on im2col.
#include <gtest/gtest.h>

#include <cmath>

#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

using testing::CpuHarness;
using testing::random_values;

struct ConvCase {
    std::int64_t n, c, h, k, r;
    int stride, padding;
    bool bias;
};

struct ConvResults {
    std::vector<double> y, dx, dw, dbias;
};

ConvResults run_passes(Precision precision, const ConvCase& t, int threads) {
    CpuHarness h(precision, threads);
    const Conv2dGeometry g{t.stride, t.padding};
    const std::int64_t p = conv_output_extent(t.h, t.r, t.stride, t.padding);
    Tensor x = h.upload(Shape{t.n, t.c, t.h, t.h}, random_values(t.n * t.c * t.h * t.h, 11));
    Tensor w = h.upload(Shape{t.k, t.c, t.r, t.r}, random_values(t.k * t.c * t.r * t.r, 12));
    Tensor bias = t.bias ? h.upload(Shape{t.k}, random_values(t.k, 13)) : Tensor();
    Tensor dy = h.upload(Shape{t.n, t.k, p, p}, random_values(t.n * t.k * p * p, 14));
    Tensor y = h.context.make(Shape{t.n, t.k, p, p});
    Tensor dx = h.context.make(Shape{t.n, t.c, t.h, t.h});
    Tensor dw = h.context.make(Shape{t.k, t.c, t.r, t.r});
    Tensor dbias = t.bias ? h.context.make(Shape{t.k}) : Tensor();
    h.backend.conv2d_forward(x, w, bias, y, g);
    h.backend.conv2d_backward_data(dy, w, dx, g);
    h.backend.conv2d_backward_filter(x, dy, dw, dbias, g);
    return {h.download(y), h.download(dx), h.download(dw),
            t.bias ? h.download(dbias) : std::vector<double>{}};
}

// fp32 against fp64 on inputs in [-1, 1]: relative to the largest magnitude of the
// result, the error of a sum of a few hundred fp32 products stays far below 1e-5.
void expect_close(const std::vector<double>& got, const std::vector<double>& expected,
                  const char* pass, const ConvCase& t) {
    ASSERT_EQ(got.size(), expected.size()) << pass;
    double scale = 0.0;
    for (double v : expected) {
        scale = std::max(scale, std::abs(v));
    }
    for (std::size_t i = 0; i < got.size(); ++i) {
        ASSERT_NEAR(got[i], expected[i], 1e-5 * scale)
            << pass << " element " << i << " of c" << t.c << " k" << t.k << " h" << t.h << " r"
            << t.r << " stride " << t.stride << " padding " << t.padding;
    }
}

TEST(WorkloadsCpuConvolutionPaths, Fp32AgreesWithFp64OnEveryPass) {
    for (const ConvCase& t :
         {ConvCase{3, 16, 9, 16, 3, 1, 1, false}, ConvCase{2, 16, 10, 32, 3, 2, 1, false},
          ConvCase{2, 16, 10, 32, 1, 2, 0, false}, ConvCase{2, 8, 7, 24, 3, 1, 0, true},
          ConvCase{4, 1, 12, 32, 3, 1, 0, true}, ConvCase{2, 3, 8, 5, 5, 1, 2, true}}) {
        for (int threads : {1, 2}) {
            const ConvResults single = run_passes(Precision::fp32, t, threads);
            const ConvResults reference = run_passes(Precision::fp64, t, threads);
            expect_close(single.y, reference.y, "forward", t);
            expect_close(single.dx, reference.dx, "backward-data", t);
            expect_close(single.dw, reference.dw, "backward-filter", t);
            expect_close(single.dbias, reference.dbias, "backward-bias", t);
        }
    }
}

TEST(WorkloadsCpuConvolutionPaths, Fp32IsRunToRunIdentical) {
    const ConvCase t{5, 16, 14, 32, 3, 2, 1, true};
    const ConvResults first = run_passes(Precision::fp32, t, 2);
    const ConvResults second = run_passes(Precision::fp32, t, 2);
    EXPECT_EQ(first.y, second.y);
    EXPECT_EQ(first.dx, second.dx);
    EXPECT_EQ(first.dw, second.dw);
    EXPECT_EQ(first.dbias, second.dbias);
}

TEST(WorkloadsCpuConvolutionPaths, EnvironmentNamesTheKernelsThatRan) {
    CpuHarness h(Precision::fp32, 1);
    Tensor x = h.upload(Shape{2, 16, 8, 8}, random_values(2 * 16 * 64, 1));
    Tensor w = h.upload(Shape{16, 16, 3, 3}, random_values(16 * 16 * 9, 2));
    Tensor y = h.context.make(Shape{2, 16, 8, 8});
    h.backend.conv2d_forward(x, w, Tensor(), y, Conv2dGeometry{1, 1});
    const auto environment = h.backend.environment();
    ASSERT_TRUE(environment.contains("onednn"));
    EXPECT_NE(environment.at("onednn").find("OpenMP"), std::string::npos);
    ASSERT_TRUE(environment.contains("onednn_kernels"));
    EXPECT_NE(environment.at("onednn_kernels").find("2x16x8x8 k16 r3 s1 p1: fwd "),
              std::string::npos)
        << environment.at("onednn_kernels");
}

}  // namespace
}  // namespace trainscope::workloads
