// The Backend contract runs on every Backend call inside the timed step, where the step
// must allocate nothing on the host (issue 14). This executable replaces the global
// operator new with a counting one (counting_new.cpp); here every tensor operation is
// called with valid arguments through a backend whose hooks do nothing, so every
// allocation counted is the contract's.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "counting_new.hpp"
#include "null_backend.hpp"
#include "workloads/memory/TensorAllocator.hpp"

namespace trainscope::workloads {
namespace {

// Every tensor operation once with valid arguments, the checks' every kind exercised
// (like, same dtype, master dtype beside a 16-bit gradient, element counts, shapes).
std::vector<std::function<void()>> valid_calls(Backend& b, TensorAllocator& t) {
    const auto f32 = [&t](const Shape& s) { return t.allocate(s, DType::f32); };
    const Conv2dGeometry conv{1, 1};
    const Pool2dGeometry pool{2, 2, 0};
    // Kept alive by the closures (a Tensor is a handle to shared storage).
    const Tensor image = f32(Shape{2, 3, 8, 8});
    const Tensor filters = f32(Shape{4, 3, 3, 3});
    const Tensor conv_out = f32(Shape{2, 4, 8, 8});
    const Tensor four = f32(Shape{4});
    const Tensor three = f32(Shape{3});
    const Tensor pooled = f32(Shape{2, 3, 4, 4});
    const Tensor nc = f32(Shape{2, 3});
    const Tensor a = f32(Shape{2, 3});
    const Tensor bmat = f32(Shape{3, 5});
    const Tensor cmat = f32(Shape{2, 5});
    const Tensor logits = f32(Shape{2, 5});
    const Tensor labels = t.allocate(Shape{2}, DType::i32);
    const Tensor indices = t.allocate(Shape{2}, DType::i32);
    const Tensor rows = f32(Shape{4, 2});
    const Tensor gathered = f32(Shape{2, 2});
    const Tensor half_gradient = t.allocate(Shape{4}, DType::f16);
    const Tensor flag = f32(Shape{1});
    std::vector<Tensor> state{f32(Shape{4}), f32(Shape{4}), f32(Shape{4})};
    std::vector<Tensor> bn{f32(Shape{3}), f32(Shape{3}), f32(Shape{3}),
                           f32(Shape{3}), f32(Shape{3}), f32(Shape{3})};
    return {
        [&b, x = four]() mutable {
            static float host[4] = {};
            b.copy_from_host(host, x);
        },
        [&b, four] {
            static float host[4] = {};
            b.copy_to_host(four, host);
        },
        [&b, four, y = state[0]]() mutable { b.copy(four, y); },
        [&b, x = four]() mutable { b.fill(x, 1.0); },
        [&b, four, h = half_gradient]() mutable { b.convert(four, h); },
        [&b, rows, indices, d = gathered]() mutable { b.gather_rows(rows, indices, d); },
        [&b, image, filters, four, y = conv_out, conv]() mutable {
            b.conv2d_forward(image, filters, four, y, conv);
        },
        [&b, conv_out, filters, dx = image, conv]() mutable {
            b.conv2d_backward_data(conv_out, filters, dx, conv);
        },
        [&b, image, conv_out, dw = filters, db = four, conv]() mutable {
            b.conv2d_backward_filter(image, conv_out, dw, db, conv);
        },
        [&b, a, bmat, c = cmat]() mutable { b.gemm(false, false, 1.0, a, bmat, 0.0, c); },
        [&b, y = image, three]() mutable { b.add_bias(y, three); },
        [&b, image, db = three]() mutable { b.bias_backward(image, db); },
        [&b, image, y = image]() mutable { b.relu_forward(image, y); },
        [&b, image, dx = image]() mutable { b.relu_backward(image, image, dx); },
        [&b, image, y = pooled, pool]() mutable { b.max_pool_forward(image, y, pool); },
        [&b, image, pooled, dx = image, pool]() mutable {
            b.max_pool_backward(image, pooled, pooled, dx, pool);
        },
        [&b, image, y = pooled, pool]() mutable { b.avg_pool_forward(image, y, pool); },
        [&b, pooled, dx = image, pool]() mutable { b.avg_pool_backward(pooled, dx, pool); },
        [&b, image, y = nc]() mutable { b.global_avg_pool_forward(image, y); },
        [&b, nc, dx = image]() mutable { b.global_avg_pool_backward(nc, dx); },
        [&b, image, y = image, bn]() mutable {
            std::vector<Tensor>& s = bn;
            b.batch_norm_forward_training(image, s[0], s[1], y, s[2], s[3], s[4], s[5],
                                          BatchNormSettings{}, true);
        },
        [&b, image, y = image, bn]() mutable {
            b.batch_norm_forward_inference(image, bn[0], bn[1], bn[2], bn[3], y,
                                           BatchNormSettings{});
        },
        [&b, image, dx = image, bn]() mutable {
            std::vector<Tensor>& s = bn;
            b.batch_norm_backward(image, image, s[0], s[1], s[2], dx, s[3], s[4],
                                  BatchNormSettings{});
        },
        [&b, four, y = state[0]]() mutable { b.add(four, four, y); },
        [&b, logits, labels, d = logits]() mutable {
            CrossEntropyTotals totals;
            b.softmax_cross_entropy(logits, labels, 1.0, d, totals);
        },
        [&b, logits, labels, d = logits]() mutable {
            b.softmax_cross_entropy_deferred(logits, labels, 1.0, d);
        },
        [&b, four, p = state[0], v = state[1], flag]() mutable {
            b.sgd_update(p, four, v, SgdSettings{}, 1.0, flag);
        },
        [&b, half_gradient, state]() mutable {
            b.adam_update(state[0], half_gradient, state[1], state[2], AdamSettings{}, 1.0,
                          Tensor());
        },
        [&b, x = four]() mutable { b.round_storage(x, StorageRounding::fp16); },
        [&b, half_gradient, o = flag]() mutable { b.flag_non_finite(half_gradient, o); },
    };
}

TEST(WorkloadsContractAllocation, PassingChecksAllocateNothing) {
    NullBackend backend;
    TensorAllocator tensors(backend.raw_allocator());
    const std::vector<std::function<void()>> calls = valid_calls(backend, tensors);
    for (const auto& call : calls) {
        call();  // warm-up: any first-call initialisation happens here
    }
    const long before = host_allocations();
    for (int step = 0; step < 3; ++step) {
        for (const auto& call : calls) {
            call();
        }
    }
    const long allocations = host_allocations() - before;
    EXPECT_EQ(allocations, 0) << "allocations by the Backend contract over 3 x " << calls.size()
                              << " valid calls";

    // Every call passed its checks and reached its hook, and every tensor operation is
    // among them.
    for (std::size_t i = 0; i < kBackendOpCount; ++i) {
        const auto op = static_cast<BackendOp>(i);
        EXPECT_EQ(backend.hooks[i], takes_tensors(op) ? 4 : 0) << to_string(op);
    }
}

// The counter sees what it must: a string longer than the small-string buffer allocates.
TEST(WorkloadsContractAllocation, TheCounterSeesAnAllocation) {
    const long before = host_allocations();
    const std::string text(64, 'x');
    EXPECT_GT(host_allocations() - before, 0) << text.size();
}

}  // namespace
}  // namespace trainscope::workloads
