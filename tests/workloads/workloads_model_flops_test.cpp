// Model FLOPs per image (workloads/models/ModelFlops) against PyTorch's own counter.
//
// What is compared: the FLOPs of convolutions and GEMMs (multiply-add = 2), forward and
// backward, which is all torch.utils.flop_counter.FlopCounterMode counts. trainscope's
// model FLOPs count, in addition, the bias adds, ReLU, pooling, batch norm and residual
// adds (OpCost); the test checks those make the totals larger, not what they are (the
// op formulas have their own tests, workloads_op_cost_test.cpp).
//
// The PyTorch figures come from the project's PyTorch twins of the models
// (harness/pytorch/trainscope_pytorch_worker.py, build_model), one image of 0.5s, by
//     python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install torch
//     /tmp/venv-torch/bin/python scripts/pytorch-model-flops
// with torch 2.15.0 (CPU), which printed the rows below.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "workloads/models/ModelFlops.hpp"

namespace trainscope::workloads {
namespace {

struct PyTorchFigure {
    const char* label;
    double forward;
    double backward;
};

constexpr PyTorchFigure kPyTorch[] = {
    {"seed-cnn 1x28x28", 497536, 605696},
    {"lenet5 1x28x28", 833040, 1430880},
    {"resnet-8 3x32x32", 25003264, 49121792},
    {"resnet-20 3x32x32", 81626368, 162368000},
};

struct Case {
    std::string model;
    std::map<std::string, std::string> params;
    Shape input;
};

Case case_of(const std::string& label) {
    if (label == "seed-cnn 1x28x28")
        return {"seed-cnn", {}, Shape{1, 28, 28}};
    if (label == "lenet5 1x28x28")
        return {"lenet5", {}, Shape{1, 28, 28}};
    if (label == "resnet-8 3x32x32")
        return {"resnet", {{"depth", "8"}}, Shape{3, 32, 32}};
    return {"resnet", {{"depth", "20"}}, Shape{3, 32, 32}};
}

double relative_difference(double ours, double theirs) {
    return std::abs(ours - theirs) / theirs;
}

TEST(ModelFlops, ConvolutionAndGemmFlopsMatchPyTorchWithinOnePercent) {
    for (const PyTorchFigure& figure : kPyTorch) {
        SCOPED_TRACE(figure.label);
        const Case c = case_of(figure.label);
        const ModelFlops ours = model_flops_per_image(c.model, c.params, c.input, 10);
        EXPECT_LT(relative_difference(ours.conv_gemm_forward, figure.forward), 0.01)
            << "trainscope " << ours.conv_gemm_forward << ", PyTorch " << figure.forward;
        EXPECT_LT(relative_difference(ours.conv_gemm_backward, figure.backward), 0.01)
            << "trainscope " << ours.conv_gemm_backward << ", PyTorch " << figure.backward;
        // The rest of the network's work comes on top.
        EXPECT_GT(ours.forward, ours.conv_gemm_forward);
        EXPECT_GT(ours.backward, ours.conv_gemm_backward);
    }
}

TEST(ModelFlops, SeedCnnByHand) {
    // Conv 1->32 3x3 on 28x28: 26·26·32·9 multiply-adds; dense 5408->10.
    const ModelFlops f = model_flops_per_image("seed-cnn", {}, Shape{1, 28, 28}, 10);
    const double conv = 2.0 * 26 * 26 * 32 * 9;
    const double dense = 2.0 * 5408 * 10;
    EXPECT_DOUBLE_EQ(f.conv_gemm_forward, conv + dense);
    // Backward: the conv's filter gradient (no input gradient for the first layer), the
    // dense layer's weight and input gradients.
    EXPECT_DOUBLE_EQ(f.conv_gemm_backward, conv + 2 * dense);
}

}  // namespace
}  // namespace trainscope::workloads
