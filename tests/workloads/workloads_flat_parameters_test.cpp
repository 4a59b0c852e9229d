// Parameters live in one flat buffer per role and dtype (layers/FlatParameters.hpp): every
// parameter's master, gradient and compute copy is a view at a 256-byte aligned offset of
// one storage per role; the padding between views is zero and stays zero through training;
// and an update over the flat buffers gives, bit for bit, what one update per parameter on
// tensors of their own gives (the engine's layout before the flat buffers). Tensor views
// keep their storage alive.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <stdexcept>
#include <vector>

#include "workloads/backends/cpu/HostRawAllocator.hpp"
#include "workloads/layers/FlatParameters.hpp"
#include "workloads/models/ModelCatalog.hpp"
#include "workloads/optim/Adam.hpp"
#include "workloads/optim/Sgd.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

using testing::CpuHarness;

const char* base(const Tensor& t) {
    return static_cast<const char*>(t.raw()) - t.offset_bytes();
}

std::vector<std::uint8_t> bytes(Backend& backend, const Tensor& t) {
    std::vector<std::uint8_t> out(t.bytes());
    backend.copy_to_host(t, out.data());
    return out;
}

std::unique_ptr<Model> resnet8() {
    return build_model("resnet", {{"depth", "8"}, {"width", "8"}}, Shape{1, 12, 12}, 5);
}

// One forward and backward pass on random input: real gradients in the flat buffers.
void backward_once(CpuHarness& h, Model& model) {
    Tensor x = h.context.to_storage(h.upload(Shape{4, 1, 12, 12}, testing::random_values(576, 9)));
    const std::vector<std::int32_t> label_values{0, 1, 2, 3};
    Tensor labels = h.tensors.allocate(Shape{4}, DType::i32);
    h.backend.copy_from_host(label_values.data(), labels);
    Tensor logits = model.forward(h.context, x);
    Tensor dlogits = h.context.make(logits.shape());
    CrossEntropyTotals totals;
    h.backend.softmax_cross_entropy(logits, labels, 1.0, dlogits, totals);
    model.backward(h.context, dlogits);
}

// The elements of a master-layout buffer that belong to no parameter.
std::vector<double> padding(CpuHarness& h, const FlatParameters& flat, const Tensor& buffer) {
    std::vector<bool> used(static_cast<std::size_t>(flat.layout_elements()), false);
    for (std::size_t i = 0; i < flat.parameters().size(); ++i) {
        for (std::int64_t e = 0; e < flat.parameters()[i]->shape.elements(); ++e) {
            used[static_cast<std::size_t>(flat.offset(i) + e)] = true;
        }
    }
    const std::vector<double> values = h.download(buffer);
    std::vector<double> out;
    for (std::size_t e = 0; e < values.size(); ++e) {
        if (!used[e]) {
            out.push_back(values[e]);
        }
    }
    return out;
}

class WorkloadsFlatParameters : public ::testing::TestWithParam<Precision> {};

TEST_P(WorkloadsFlatParameters, EveryRoleIsOneBufferOfAlignedNonOverlappingViews) {
    CpuHarness h(GetParam());
    std::unique_ptr<Model> model = resnet8();
    model->materialize(h.context, 3);
    const FlatParameters& flat = model->flat_parameters();
    ASSERT_GT(model->parameters().size(), 20u);
    std::set<const char*> value_bases;
    std::set<const char*> gradient_bases;
    std::set<const char*> copy_bases;
    std::int64_t previous_end = 0;
    std::set<std::int64_t> offsets;
    for (std::size_t i = 0; i < model->parameters().size(); ++i) {
        const Parameter& p = *model->parameters()[i];
        value_bases.insert(base(p.value));
        gradient_bases.insert(base(p.gradient));
        for (const Tensor* t : {&p.value, &p.gradient, &p.compute_copy}) {
            if (t->empty()) {
                continue;
            }
            EXPECT_EQ(t->offset_bytes() % kParameterAlignmentBytes, 0u) << p.name;
            EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t->raw()) % kParameterAlignmentBytes, 0u)
                << p.name;
            EXPECT_EQ(t->shape(), p.shape) << p.name;
        }
        if (!p.compute_copy.empty()) {
            copy_bases.insert(base(p.compute_copy));
            EXPECT_EQ(p.compute_copy.offset_bytes() / dtype_bytes(p.compute_copy.dtype()),
                      static_cast<std::size_t>(flat.offset(i)));
        }
        EXPECT_EQ(p.value.offset_bytes() / dtype_bytes(p.value.dtype()),
                  static_cast<std::size_t>(flat.offset(i)));
        EXPECT_LE(flat.offset(i) + p.shape.elements(), flat.layout_elements());
        offsets.insert(flat.offset(i));
        previous_end = std::max(previous_end, flat.offset(i) + p.shape.elements());
    }
    EXPECT_EQ(offsets.size(), model->parameters().size()) << "each parameter its own place";
    EXPECT_LE(previous_end, flat.layout_elements());
    EXPECT_EQ(value_bases.size(), 1u) << "one master buffer";
    EXPECT_EQ(gradient_bases.size(), 1u) << "one gradient dtype on the CPU: one buffer";
    const bool mixed = GetParam() == Precision::fp16;
    EXPECT_EQ(copy_bases.size(), mixed ? 1u : 0u) << "one compute-copy buffer in fp16";
    EXPECT_EQ(flat.spans().size(), 1u);
    // No two views overlap: offsets sorted with their sizes never cross the next one.
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
    for (std::size_t i = 0; i < model->parameters().size(); ++i) {
        ranges.emplace_back(flat.offset(i), model->parameters()[i]->shape.elements());
    }
    std::sort(ranges.begin(), ranges.end());
    for (std::size_t i = 1; i < ranges.size(); ++i) {
        EXPECT_LE(ranges[i - 1].first + ranges[i - 1].second, ranges[i].first);
    }
}

TEST_P(WorkloadsFlatParameters, OneFlatUpdateEqualsOneUpdatePerParameterBitForBit) {
    for (const bool adam : {true, false}) {
        CpuHarness h(GetParam());
        std::unique_ptr<Model> model = resnet8();
        model->materialize(h.context, 5);
        backward_once(h, *model);
        // The layout before the flat buffers: each parameter's tensors of their own.
        std::vector<Tensor> values;
        std::vector<Tensor> states;
        for (const Parameter* p : model->parameters()) {
            values.push_back(h.context.make_master(p->shape));
            h.backend.copy(p->value, values.back());
            for (int s = 0; s < 2; ++s) {
                states.push_back(h.context.make_master(p->shape));
                h.backend.fill(states.back(), 0.0);
            }
        }
        AdamSettings adam_settings;
        adam_settings.learning_rate = 1e-2;
        SgdSettings sgd_settings;
        sgd_settings.learning_rate = 1e-2;
        sgd_settings.momentum = 0.9;
        sgd_settings.weight_decay = 5e-4;
        std::unique_ptr<Optimizer> optimizer;
        if (adam) {
            optimizer = std::make_unique<Adam>(model->flat_parameters(), h.context, adam_settings);
        } else {
            optimizer = std::make_unique<Sgd>(model->flat_parameters(), h.context, sgd_settings);
        }
        for (int step = 1; step <= 2; ++step) {
            optimizer->step(h.context, 0.5, Tensor());
            optimizer->finish_step(true);
            model->refresh_compute_copies(h.context);
            adam_settings.step = step;
            for (std::size_t i = 0; i < values.size(); ++i) {
                const Tensor& gradient = model->parameters()[i]->gradient;
                if (adam) {
                    h.backend.adam_update(values[i], gradient, states[2 * i], states[2 * i + 1],
                                          adam_settings, 0.5, Tensor());
                } else {
                    h.backend.sgd_update(values[i], gradient, states[2 * i], sgd_settings, 0.5,
                                         Tensor());
                }
            }
        }
        for (std::size_t i = 0; i < values.size(); ++i) {
            const Parameter& p = *model->parameters()[i];
            EXPECT_EQ(bytes(h.backend, p.value), bytes(h.backend, values[i])) << p.name;
            if (!p.compute_copy.empty()) {
                Tensor rounded = h.context.make(p.shape);
                h.backend.copy(values[i], rounded);
                h.context.round_result(rounded);
                EXPECT_EQ(bytes(h.backend, p.compute_copy), bytes(h.backend, rounded)) << p.name;
            }
        }
        const FlatParameters& flat = model->flat_parameters();
        for (const double v : padding(h, flat, flat.masters())) {
            ASSERT_EQ(v, 0.0) << "the masters' padding stays zero";
        }
        for (const double v : padding(h, flat, flat.spans()[0].gradients)) {
            ASSERT_EQ(v, 0.0) << "the gradients' padding stays zero";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Precisions, WorkloadsFlatParameters,
                         ::testing::Values(Precision::fp32, Precision::fp16, Precision::fp64));

TEST(WorkloadsTensorView, AViewKeepsItsStorageAliveAndStaysInside) {
    HostRawAllocator host;
    TensorAllocator tensors(host);
    Tensor part;
    {
        Tensor whole = tensors.allocate(Shape{100}, DType::f32);
        part = whole.view(64, Shape{4, 9});
        EXPECT_EQ(part.offset_bytes(), 256u);
        EXPECT_EQ(part.raw(), static_cast<char*>(whole.raw()) + 256);
        const Tensor inner = part.view(8, Shape{2});
        EXPECT_EQ(inner.offset_bytes(), 256u + 32u);
        EXPECT_EQ(part.reshaped(Shape{36}).raw(), part.raw());
        EXPECT_THROW((void)whole.view(90, Shape{11}), std::logic_error);
        EXPECT_THROW((void)part.view(-1, Shape{1}), std::logic_error);
    }
    EXPECT_EQ(tensors.live_bytes(), 400) << "the view holds the storage";
    part = Tensor();
    EXPECT_EQ(tensors.live_bytes(), 0);
}

}  // namespace
}  // namespace trainscope::workloads
