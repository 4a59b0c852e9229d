// FLOP and byte formulas of every op (workloads/backend/OpCost) against values worked
// out by hand from the shapes, so that a changed formula is a deliberate change.
#include <gtest/gtest.h>

#include "workloads/backend/OpCost.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

class OpCostTest : public ::testing::Test {
  protected:
    // f32 tensors: 4 bytes per element.
    Tensor make(const Shape& shape) { return h_.context.make(shape); }
    testing::CpuHarness h_{Precision::fp32};
};

TEST_F(OpCostTest, ConvolutionForwardCountsTwoPerMultiplyAddPlusBias) {
    // x 2x3x8x8, w 4x3x3x3, y 2x4x6x6: N·K·P·Q = 288, C·R·S = 27.
    const Tensor x = make({2, 3, 8, 8});
    const Tensor w = make({4, 3, 3, 3});
    const Tensor b = make({4});
    const Tensor y = make({2, 4, 6, 6});
    const OpCost with_bias = conv2d_forward_cost(x, w, b, y);
    EXPECT_DOUBLE_EQ(with_bias.flops, 2.0 * 288 * 27 + 288);  // 15840
    EXPECT_DOUBLE_EQ(with_bias.bytes, 4.0 * (384 + 108 + 4 + 288));
    EXPECT_DOUBLE_EQ(with_bias.matmul_flops, 15552.0);  // the bias is no multiply-add
    const OpCost no_bias = conv2d_forward_cost(x, w, Tensor{}, y);
    EXPECT_DOUBLE_EQ(no_bias.flops, 15552.0);
    EXPECT_DOUBLE_EQ(no_bias.bytes, 4.0 * (384 + 108 + 288));
}

TEST_F(OpCostTest, ConvolutionBackwardPassesDoTheForwardMultiplyAdds) {
    const Tensor x = make({2, 3, 8, 8});
    const Tensor w = make({4, 3, 3, 3});
    const Tensor dy = make({2, 4, 6, 6});
    const OpCost data = conv2d_backward_data_cost(dy, w, x);
    EXPECT_DOUBLE_EQ(data.flops, 15552.0);
    EXPECT_DOUBLE_EQ(data.bytes, 4.0 * (288 + 108 + 384));
    const Tensor db = make({4});
    const OpCost filter = conv2d_backward_filter_cost(x, dy, w, db);
    EXPECT_DOUBLE_EQ(filter.flops, 15552.0 + 288);
    EXPECT_DOUBLE_EQ(filter.matmul_flops, 15552.0);
    EXPECT_DOUBLE_EQ(data.matmul_flops, 15552.0);
    EXPECT_DOUBLE_EQ(filter.bytes, 4.0 * (384 + 288 + 108 + 4));
}

TEST_F(OpCostTest, GemmIsTwoMnkAndReadsCOnlyWhenAccumulating) {
    // Dense forward: y[32,10] = x[32,800] · w[10,800]^T: m 32, n 10, k 800.
    const Tensor a = make({32, 800});
    const Tensor b = make({10, 800});
    const Tensor c = make({32, 10});
    const OpCost overwrite = gemm_cost(false, true, a, b, 0.0, c);
    EXPECT_DOUBLE_EQ(overwrite.flops, 2.0 * 32 * 10 * 800);
    EXPECT_DOUBLE_EQ(overwrite.bytes, 4.0 * (25600 + 8000 + 320));
    const OpCost accumulate = gemm_cost(false, true, a, b, 1.0, c);
    EXPECT_DOUBLE_EQ(accumulate.flops, 2.0 * 32 * 10 * 800 + 2.0 * 320);
    EXPECT_DOUBLE_EQ(accumulate.bytes, 4.0 * (25600 + 8000 + 2 * 320));
    EXPECT_DOUBLE_EQ(accumulate.matmul_flops, 2.0 * 32 * 10 * 800);
    // Weight gradient: dw[10,800] = dy[32,10]^T · x[32,800]: m 10, n 800, k 32.
    const OpCost weight_grad = gemm_cost(true, false, c, a, 0.0, b);
    EXPECT_DOUBLE_EQ(weight_grad.flops, 2.0 * 10 * 800 * 32);
}

TEST_F(OpCostTest, ElementwiseOpsCountOnePerElement) {
    const Tensor x = make({2, 4, 6, 6});  // 288 elements, 1152 bytes
    const Tensor y = make({2, 4, 6, 6});
    const Tensor dx = make({2, 4, 6, 6});
    const Tensor bias = make({4});
    EXPECT_DOUBLE_EQ(relu_forward_cost(x, y).flops, 288.0);
    EXPECT_DOUBLE_EQ(relu_forward_cost(x, y).bytes, 2304.0);
    EXPECT_DOUBLE_EQ(relu_forward_cost(x, y).matmul_flops, 0.0);
    EXPECT_DOUBLE_EQ(relu_backward_cost(y, x, dx).bytes, 3456.0);
    EXPECT_DOUBLE_EQ(add_cost(x, y, dx).flops, 288.0);
    EXPECT_DOUBLE_EQ(add_cost(x, y, dx).bytes, 3456.0);
    EXPECT_DOUBLE_EQ(add_bias_cost(y, bias).flops, 288.0);
    EXPECT_DOUBLE_EQ(add_bias_cost(y, bias).bytes, 2304.0 + 16.0);  // y read and written
    EXPECT_DOUBLE_EQ(bias_backward_cost(y, bias).bytes, 1152.0 + 16.0);
    EXPECT_DOUBLE_EQ(round_storage_cost(x).bytes, 2304.0);
    EXPECT_DOUBLE_EQ(flag_non_finite_cost(x).flops, 288.0);
    EXPECT_DOUBLE_EQ(copy_cost(x, y).flops, 0.0);
    EXPECT_DOUBLE_EQ(copy_cost(x, y).bytes, 2304.0);
    EXPECT_DOUBLE_EQ(fill_cost(x).bytes, 1152.0);
}

TEST_F(OpCostTest, PoolingCountsTheWindowPerOutput) {
    const Tensor x = make({2, 4, 6, 6});  // 288
    const Tensor y = make({2, 4, 3, 3});  // 72
    const Pool2dGeometry g{2, 2, 0};
    EXPECT_DOUBLE_EQ(max_pool_forward_cost(x, y, g).flops, 72.0 * 4);
    EXPECT_DOUBLE_EQ(max_pool_forward_cost(x, y, g).bytes, 4.0 * (288 + 72));
    EXPECT_DOUBLE_EQ(max_pool_backward_cost(x, y, y, x, g).bytes, 4.0 * (288 + 72 + 72 + 288));
    EXPECT_DOUBLE_EQ(avg_pool_forward_cost(x, y, Pool2dGeometry{3, 2, 1}).flops, 72.0 * 9);
    EXPECT_DOUBLE_EQ(avg_pool_backward_cost(y, x, g).bytes, 4.0 * (72 + 288));
    const Tensor pooled = make({2, 4});
    EXPECT_DOUBLE_EQ(global_avg_pool_forward_cost(x, pooled).flops, 288.0);
    EXPECT_DOUBLE_EQ(global_avg_pool_backward_cost(pooled, x).bytes, 4.0 * (8 + 288));
}

TEST_F(OpCostTest, BatchNormMovesEachChannelTensorOnce) {
    const Tensor x = make({2, 4, 6, 6});  // 288 elements, C = 4
    const Tensor y = make({2, 4, 6, 6});
    const Tensor gamma = make({4});  // 16 bytes
    const OpCost train = batch_norm_forward_training_cost(x, y, gamma, true);
    EXPECT_DOUBLE_EQ(train.flops, 8.0 * 288);
    EXPECT_DOUBLE_EQ(train.bytes, 2304.0 + 8 * 16);
    EXPECT_DOUBLE_EQ(batch_norm_forward_training_cost(x, y, gamma, false).bytes, 2304.0 + 4 * 16);
    const OpCost infer = batch_norm_forward_inference_cost(x, y, gamma);
    EXPECT_DOUBLE_EQ(infer.flops, 2.0 * 288);
    EXPECT_DOUBLE_EQ(infer.bytes, 2304.0 + 4 * 16);
    const OpCost back = batch_norm_backward_cost(x, y, y, gamma);
    EXPECT_DOUBLE_EQ(back.flops, 10.0 * 288);
    EXPECT_DOUBLE_EQ(back.bytes, 3456.0 + 5 * 16);
}

TEST_F(OpCostTest, LossCountsTheGradientWhenItIsWritten) {
    const Tensor logits = make({32, 10});
    const Tensor labels = h_.tensors.allocate(Shape{32}, DType::i32);
    const Tensor dlogits = make({32, 10});
    EXPECT_DOUBLE_EQ(softmax_cross_entropy_cost(logits, labels, dlogits).flops, 6.0 * 320);
    EXPECT_DOUBLE_EQ(softmax_cross_entropy_cost(logits, labels, dlogits).bytes,
                     1280.0 + 128.0 + 1280.0);
    EXPECT_DOUBLE_EQ(softmax_cross_entropy_cost(logits, labels, Tensor{}).flops, 5.0 * 320);
}

TEST_F(OpCostTest, OptimizerUpdatesReadAndWriteTheirState) {
    const Tensor p = make({100});  // 400 bytes
    const Tensor g = make({100});
    const Tensor m = make({100});
    const Tensor v = make({100});
    const OpCost sgd = sgd_update_cost(p, g, m, SgdSettings{0.01, 0.9, 0.0});
    EXPECT_DOUBLE_EQ(sgd.flops, 500.0);
    EXPECT_DOUBLE_EQ(sgd.bytes, 5.0 * 400);
    EXPECT_DOUBLE_EQ(sgd_update_cost(p, g, m, SgdSettings{0.01, 0.9, 1e-4}).flops, 700.0);
    const OpCost adam = adam_update_cost(p, g, m, v);
    EXPECT_DOUBLE_EQ(adam.flops, 1400.0);
    EXPECT_DOUBLE_EQ(adam.bytes, 7.0 * 400);
}

}  // namespace
}  // namespace trainscope::workloads
