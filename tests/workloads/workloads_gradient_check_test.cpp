// Finite-difference checks in fp64 of every layer's backward pass and of a whole small
// ResNet: analytic gradients must match central differences to a relative error below
// 1e-6 (norm over the checked elements).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>

#include "workloads/layers/BatchNorm2d.hpp"
#include "workloads/layers/Conv2d.hpp"
#include "workloads/layers/Dense.hpp"
#include "workloads/layers/Flatten.hpp"
#include "workloads/layers/GlobalAvgPool.hpp"
#include "workloads/layers/Pool2d.hpp"
#include "workloads/layers/Relu.hpp"
#include "workloads/layers/ResidualBlock.hpp"
#include "workloads/models/ResNet.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

using testing::CpuHarness;
using testing::random_values;

constexpr double kStep = 1e-6;
constexpr double kTolerance = 1e-6;
constexpr std::int64_t kBatch = 3;

// Norm-wise relative error of analytic against numeric gradients.
double relative_error(const std::vector<double>& analytic, const std::vector<double>& numeric) {
    double difference = 0.0;
    double scale = 0.0;
    for (std::size_t i = 0; i < analytic.size(); ++i) {
        difference += (analytic[i] - numeric[i]) * (analytic[i] - numeric[i]);
        scale += (std::abs(analytic[i]) + std::abs(numeric[i])) *
                 (std::abs(analytic[i]) + std::abs(numeric[i]));
    }
    return scale == 0.0 ? 0.0 : std::sqrt(difference / scale);
}

// Central differences of `loss` with respect to up to `limit` elements of `tensor`.
std::vector<double> numeric_gradient(CpuHarness& h, Tensor& tensor,
                                     const std::function<double()>& loss,
                                     const std::vector<std::size_t>& elements) {
    std::vector<double> values = h.download(tensor);
    std::vector<double> gradient;
    for (std::size_t i : elements) {
        const double original = values[i];
        values[i] = original + kStep;
        h.backend.copy_from_host(values.data(), tensor);
        const double plus = loss();
        values[i] = original - kStep;
        h.backend.copy_from_host(values.data(), tensor);
        const double minus = loss();
        values[i] = original;
        h.backend.copy_from_host(values.data(), tensor);
        gradient.push_back((plus - minus) / (2 * kStep));
    }
    return gradient;
}

std::vector<std::size_t> sample_elements(std::int64_t count, std::size_t limit) {
    std::vector<std::size_t> elements;
    const auto n = static_cast<std::size_t>(count);
    const std::size_t stride = std::max<std::size_t>(1, n / limit);
    for (std::size_t i = 0; i < n; i += stride) {
        elements.push_back(i);
    }
    return elements;
}

std::vector<double> pick(const std::vector<double>& all, const std::vector<std::size_t>& which) {
    std::vector<double> picked;
    for (std::size_t i : which) {
        picked.push_back(all[i]);
    }
    return picked;
}

void materialize(CpuHarness& h, Layer& layer, std::uint64_t seed) {
    for (Parameter* p : layer.parameters()) {
        p->value = h.upload(p->shape, random_values(p->shape.elements(), seed++, 0.5, 1.5));
        p->gradient = h.context.make(p->shape);
    }
    for (StateBuffer* b : layer.buffers()) {
        b->value = h.context.make(b->shape);
        h.backend.fill(b->value, b->initial_value);
    }
}

// loss = sum(projection * layer(x)): its gradient with respect to the output is the
// projection, so backward(projection) must give d loss / d x and d loss / d parameters.
// The layer outlives this function's harness, whose allocator its tensors return to: they
// are released before the harness goes (ASan+UBSan found the layer's destructor calling
// into the destroyed allocator).
struct ReleaseLayerTensors {
    Layer& layer;
    ~ReleaseLayerTensors() {
        layer.release_saved();
        for (Parameter* p : layer.parameters())
            p->value = p->gradient = p->compute_copy = Tensor();
        for (StateBuffer* b : layer.buffers())
            b->value = Tensor();
    }
};

void check_layer(Layer& layer, double input_low = -1.0, double input_high = 1.0) {
    CpuHarness h;
    const ReleaseLayerTensors release{layer};
    materialize(h, layer, 11);
    Tensor x =
        h.upload(layer.input_shape().with_batch(kBatch),
                 random_values(layer.input_shape().elements() * kBatch, 7, input_low, input_high));
    const Shape out_shape = layer.output_shape().with_batch(kBatch);
    const std::vector<double> projection_values = random_values(out_shape.elements(), 5);
    Tensor projection = h.upload(out_shape, projection_values);
    auto loss = [&] {
        const Tensor y = layer.forward(h.context, x);
        layer.release_saved();
        const std::vector<double> out = h.download(y);
        double sum = 0.0;
        for (std::size_t i = 0; i < out.size(); ++i) {
            sum += out[i] * projection_values[i];
        }
        return sum;
    };
    layer.forward(h.context, x);
    const Tensor dx = layer.backward(h.context, projection, true);
    layer.release_saved();
    ASSERT_FALSE(dx.empty()) << layer.name();
    const std::vector<double> analytic_dx = h.download(dx);
    for (Parameter* p : layer.parameters()) {
        const std::vector<double> analytic = h.download(p->gradient);
        const auto which = sample_elements(p->shape.elements(), 40);
        const double error =
            relative_error(pick(analytic, which), numeric_gradient(h, p->value, loss, which));
        EXPECT_LT(error, kTolerance) << layer.name() << " parameter " << p->name;
    }
    const auto which = sample_elements(x.elements(), 60);
    const double error =
        relative_error(pick(analytic_dx, which), numeric_gradient(h, x, loss, which));
    EXPECT_LT(error, kTolerance) << layer.name() << " input";
}

TEST(WorkloadsGradientCheck, ConvolutionStride1Valid) {
    Conv2d layer(Shape{2, 6, 6}, 3, 3, Conv2dGeometry{1, 0}, true);
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, ConvolutionStride2Padded) {
    Conv2d layer(Shape{3, 7, 7}, 4, 3, Conv2dGeometry{2, 1}, false);
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, PointwiseConvolution) {
    Conv2d layer(Shape{3, 5, 5}, 2, 1, Conv2dGeometry{1, 0}, true);
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, Dense) {
    Dense layer(Shape{2, 3, 3}, 5);
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, Relu) {
    Relu layer(Shape{2, 4, 4});
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, MaxPool2x2) {
    Pool2d layer(Shape{2, 6, 6}, PoolKind::max, Pool2dGeometry{2, 2, 0});
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, MaxPoolOverlappingPadded) {
    Pool2d layer(Shape{2, 5, 5}, PoolKind::max, Pool2dGeometry{3, 2, 1});
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, AveragePool) {
    Pool2d layer(Shape{2, 6, 6}, PoolKind::average, Pool2dGeometry{2, 2, 0});
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, GlobalAveragePool) {
    GlobalAvgPool layer(Shape{3, 4, 4});
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, BatchNormTraining) {
    BatchNorm2d layer(Shape{3, 4, 4});
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, Flatten) {
    Flatten layer(Shape{2, 3, 3});
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, ResidualBlockWithProjection) {
    ResidualBlock layer(Shape{2, 6, 6}, 4, 2);
    check_layer(layer);
}

TEST(WorkloadsGradientCheck, ResidualBlockIdentity) {
    ResidualBlock layer(Shape{3, 5, 5}, 3, 1);
    check_layer(layer);
}

// The whole ResNet-8 (batch norm in training mode) under softmax cross-entropy.
TEST(WorkloadsGradientCheck, WholeResNet8) {
    CpuHarness h;
    auto model = make_resnet(Shape{1, 8, 8}, 3, 8, 2);
    model->materialize(h.context, 3);
    const std::int64_t batch = 4;
    Tensor x = h.upload(Shape{batch, 1, 8, 8}, random_values(batch * 64, 9, 0.0, 1.0));
    const std::vector<double> label_values{0, 2, 1, 2};
    std::vector<std::int32_t> label_ints(label_values.begin(), label_values.end());
    Tensor labels = h.tensors.allocate(Shape{batch}, DType::i32);
    h.backend.copy_from_host(label_ints.data(), labels);
    Tensor no_gradient;
    auto loss = [&] {
        h.context.training = true;
        const Tensor logits = model->forward(h.context, x);
        for (const auto& layer : model->layers()) {
            layer->release_saved();
        }
        CrossEntropyTotals totals;
        h.backend.softmax_cross_entropy(logits, labels, 1.0, no_gradient, totals);
        return totals.loss_sum / static_cast<double>(totals.count);
    };
    const Tensor logits = model->forward(h.context, x);
    Tensor dlogits = h.context.make(logits.shape());
    CrossEntropyTotals totals;
    h.backend.softmax_cross_entropy(logits, labels, 1.0, dlogits, totals);
    model->backward(h.context, dlogits);
    std::vector<double> analytic;
    std::vector<double> numeric;
    for (Parameter* p : model->parameters()) {
        const auto which = sample_elements(p->shape.elements(), 6);
        const std::vector<double> a = pick(h.download(p->gradient), which);
        const std::vector<double> n = numeric_gradient(h, p->value, loss, which);
        analytic.insert(analytic.end(), a.begin(), a.end());
        numeric.insert(numeric.end(), n.begin(), n.end());
    }
    EXPECT_GT(analytic.size(), 50u);
    EXPECT_LT(relative_error(analytic, numeric), kTolerance);
}

}  // namespace
}  // namespace trainscope::workloads
