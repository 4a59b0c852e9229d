// The Backend contract, checked once for every backend (Backend.cpp): every operation
// called with a bad argument throws ContractError (a std::logic_error: a bug) naming the
// backend, the op, the argument and what was expected, before the backend's hook runs (the
// counting layer around the backend sees no call of the op). Run against every backend
// present: the CPU always, CUDA where a device exists (else that part skips, saying why).
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "workloads/backend/BackendOp.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/backend/ContractError.hpp"
#include "workloads/backend/CountingBackend.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {
namespace {

struct Tensors {
    TensorAllocator& allocator;
    Tensor operator()(const Shape& shape, DType dtype = DType::f32) const {
        return allocator.allocate(shape, dtype);
    }
};

struct BadCall {
    BackendOp op;
    const char* argument;  // the argument the message must name
    std::function<void(Backend&, const Tensors&)> call;
};

// One or more bad calls per operation; a good call differs from each in one argument.
std::vector<BadCall> bad_calls() {
    const Conv2dGeometry conv{1, 1};
    const Pool2dGeometry pool{2, 2, 0};
    const Shape image{2, 3, 8, 8};
    return {
        {BackendOp::copy_from_host, "host",
         [](Backend& b, const Tensors& t) {
             Tensor d = t(Shape{4});
             b.copy_from_host(nullptr, d);
         }},
        {BackendOp::copy_from_host, "destination",
         [](Backend& b, const Tensors&) {
             float host[4] = {};
             Tensor empty;
             b.copy_from_host(host, empty);
         }},
        {BackendOp::copy_to_host, "host",
         [](Backend& b, const Tensors& t) { b.copy_to_host(t(Shape{4}), nullptr); }},
        {BackendOp::copy, "destination",
         [](Backend& b, const Tensors& t) {
             Tensor d = t(Shape{5});
             b.copy(t(Shape{4}), d);
         }},
        {BackendOp::copy, "destination",
         [](Backend& b, const Tensors& t) {
             Tensor d = t(Shape{4}, DType::f64);
             b.copy(t(Shape{4}), d);
         }},
        {BackendOp::fill, "tensor",
         [](Backend& b, const Tensors&) {
             Tensor empty;
             b.fill(empty, 1.0);
         }},
        {BackendOp::convert, "destination",
         [](Backend& b, const Tensors& t) {
             Tensor d = t(Shape{3}, DType::f64);
             b.convert(t(Shape{4}), d);
         }},
        {BackendOp::gather_rows, "indices",
         [](Backend& b, const Tensors& t) {
             Tensor d = t(Shape{2, 2});
             b.gather_rows(t(Shape{4, 2}), t(Shape{2}, DType::f32), d);
         }},
        {BackendOp::gather_rows, "destination",
         [](Backend& b, const Tensors& t) {
             Tensor d = t(Shape{2, 3});
             b.gather_rows(t(Shape{4, 2}), t(Shape{2}, DType::i32), d);
         }},
        {BackendOp::conv2d_forward, "y",
         [conv, image](Backend& b, const Tensors& t) {
             Tensor y = t(Shape{2, 4, 7, 8});  // 8x8 with padding 1 and 3x3 filters
             b.conv2d_forward(t(image), t(Shape{4, 3, 3, 3}), Tensor(), y, conv);
         }},
        {BackendOp::conv2d_forward, "w",
         [conv, image](Backend& b, const Tensors& t) {
             Tensor y = t(Shape{2, 4, 8, 8});
             b.conv2d_forward(t(image), t(Shape{4, 2, 3, 3}), Tensor(), y, conv);
         }},
        {BackendOp::conv2d_forward, "bias",
         [conv, image](Backend& b, const Tensors& t) {
             Tensor y = t(Shape{2, 4, 8, 8});
             b.conv2d_forward(t(image), t(Shape{4, 3, 3, 3}), t(Shape{3}), y, conv);
         }},
        {BackendOp::conv2d_backward_data, "dx",
         [conv](Backend& b, const Tensors& t) {
             Tensor dx = t(Shape{2, 3, 8}, DType::f32);
             b.conv2d_backward_data(t(Shape{2, 4, 8, 8}), t(Shape{4, 3, 3, 3}), dx, conv);
         }},
        {BackendOp::conv2d_backward_filter, "dw",
         [conv, image](Backend& b, const Tensors& t) {
             Tensor dw = t(Shape{4, 3, 3, 3}, DType::f64);
             Tensor no_bias;
             b.conv2d_backward_filter(t(image), t(Shape{2, 4, 8, 8}), dw, no_bias, conv);
         }},
        {BackendOp::gemm, "b",
         [](Backend& b, const Tensors& t) {
             Tensor c = t(Shape{2, 5});
             b.gemm(false, false, 1.0, t(Shape{2, 3}), t(Shape{4, 5}), 0.0, c);
         }},
        {BackendOp::gemm, "c",
         [](Backend& b, const Tensors& t) {
             Tensor c = t(Shape{2, 4});
             b.gemm(false, false, 1.0, t(Shape{2, 3}), t(Shape{3, 5}), 0.0, c);
         }},
        {BackendOp::gemm, "b",
         [](Backend& b, const Tensors& t) {
             Tensor c = t(Shape{2, 5});
             b.gemm(false, false, 1.0, t(Shape{2, 3}), t(Shape{3, 5}, DType::f64), 0.0, c);
         }},
        {BackendOp::add_bias, "bias",
         [](Backend& b, const Tensors& t) {
             Tensor y = t(Shape{2, 4, 3, 3});
             b.add_bias(y, t(Shape{3}));
         }},
        {BackendOp::add_bias, "bias",
         [](Backend& b, const Tensors& t) {
             Tensor y = t(Shape{2, 4});
             b.add_bias(y, t(Shape{4}, DType::f64));
         }},
        {BackendOp::bias_backward, "dbias",
         [](Backend& b, const Tensors& t) {
             Tensor db = t(Shape{5});
             b.bias_backward(t(Shape{2, 4}), db);
         }},
        {BackendOp::relu_forward, "y",
         [](Backend& b, const Tensors& t) {
             Tensor y = t(Shape{2, 5});
             b.relu_forward(t(Shape{2, 4}), y);
         }},
        {BackendOp::relu_backward, "dx",
         [](Backend& b, const Tensors& t) {
             Tensor dx = t(Shape{2, 5});
             b.relu_backward(t(Shape{2, 4}), t(Shape{2, 4}), dx);
         }},
        {BackendOp::relu_backward, "dy",
         [](Backend& b, const Tensors& t) {
             Tensor dx = t(Shape{2, 4});
             b.relu_backward(t(Shape{2, 4}), t(Shape{2, 4}, DType::f64), dx);
         }},
        {BackendOp::max_pool_forward, "y",
         [pool, image](Backend& b, const Tensors& t) {
             Tensor y = t(Shape{2, 3, 5, 4});
             b.max_pool_forward(t(image), y, pool);
         }},
        {BackendOp::max_pool_backward, "dy",
         [pool, image](Backend& b, const Tensors& t) {
             Tensor dx = t(image);
             b.max_pool_backward(t(image), t(Shape{2, 3, 4, 4}), t(Shape{2, 3, 4, 5}), dx, pool);
         }},
        {BackendOp::max_pool_backward, "dx",
         [pool, image](Backend& b, const Tensors& t) {
             Tensor dx = t(Shape{2, 3, 8, 7});
             b.max_pool_backward(t(image), t(Shape{2, 3, 4, 4}), t(Shape{2, 3, 4, 4}), dx, pool);
         }},
        {BackendOp::max_pool_backward, "y",
         [pool, image](Backend& b, const Tensors& t) {
             Tensor dx = t(image);
             b.max_pool_backward(t(image), t(Shape{2, 3, 3, 4}), t(Shape{2, 3, 4, 4}), dx, pool);
         }},
        {BackendOp::avg_pool_forward, "y",
         [pool, image](Backend& b, const Tensors& t) {
             Tensor y = t(Shape{2, 3, 4, 4}, DType::f64);
             b.avg_pool_forward(t(image), y, pool);
         }},
        {BackendOp::avg_pool_backward, "dy",
         [pool, image](Backend& b, const Tensors& t) {
             Tensor dx = t(image);
             b.avg_pool_backward(t(Shape{2, 3, 3, 3}), dx, pool);
         }},
        {BackendOp::global_avg_pool_forward, "y",
         [image](Backend& b, const Tensors& t) {
             Tensor y = t(Shape{2, 4});
             b.global_avg_pool_forward(t(image), y);
         }},
        {BackendOp::global_avg_pool_backward, "dy",
         [image](Backend& b, const Tensors& t) {
             Tensor dx = t(image);
             b.global_avg_pool_backward(t(Shape{3, 3}), dx);
         }},
        {BackendOp::batch_norm_forward_training, "running_var",
         [image](Backend& b, const Tensors& t) {
             Tensor y = t(image);
             Tensor rm = t(Shape{3});
             Tensor rv = t(Shape{4});
             Tensor sm = t(Shape{3});
             Tensor si = t(Shape{3});
             b.batch_norm_forward_training(t(image), t(Shape{3}), t(Shape{3}), y, rm, rv, sm, si,
                                           BatchNormSettings{}, true);
         }},
        {BackendOp::batch_norm_forward_inference, "y",
         [image](Backend& b, const Tensors& t) {
             Tensor y = t(Shape{2, 3, 8, 7});
             b.batch_norm_forward_inference(t(image), t(Shape{3}), t(Shape{3}), t(Shape{3}),
                                            t(Shape{3}), y, BatchNormSettings{});
         }},
        {BackendOp::batch_norm_backward, "gamma",
         [image](Backend& b, const Tensors& t) {
             Tensor dx = t(image);
             Tensor dg = t(Shape{3});
             Tensor db = t(Shape{3});
             b.batch_norm_backward(t(image), t(image), t(Shape{3}, DType::f64), t(Shape{3}),
                                   t(Shape{3}), dx, dg, db, BatchNormSettings{});
         }},
        {BackendOp::add, "y",
         [](Backend& b, const Tensors& t) {
             Tensor y = t(Shape{3});
             b.add(t(Shape{4}), t(Shape{4}), y);
         }},
        {BackendOp::softmax_cross_entropy, "labels",
         [](Backend& b, const Tensors& t) {
             Tensor dlogits = t(Shape{2, 5});
             CrossEntropyTotals totals;
             b.softmax_cross_entropy(t(Shape{2, 5}), t(Shape{2}, DType::f32), 1.0, dlogits, totals);
         }},
        {BackendOp::softmax_cross_entropy_deferred, "dlogits",
         [](Backend& b, const Tensors& t) {
             Tensor dlogits = t(Shape{2, 4});
             b.softmax_cross_entropy_deferred(t(Shape{2, 5}), t(Shape{2}, DType::i32), 1.0,
                                              dlogits);
         }},
        {BackendOp::sgd_update, "velocity",
         [](Backend& b, const Tensors& t) {
             Tensor p = t(Shape{4});
             Tensor v = t(Shape{5});
             b.sgd_update(p, t(Shape{4}), v, SgdSettings{}, 1.0, Tensor());
         }},
        {BackendOp::sgd_update, "skip_if_overflow",
         [](Backend& b, const Tensors& t) {
             Tensor p = t(Shape{4});
             Tensor v = t(Shape{4});
             b.sgd_update(p, t(Shape{4}), v, SgdSettings{}, 1.0, t(Shape{2}));
         }},
        {BackendOp::adam_update, "parameter",
         [](Backend& b, const Tensors& t) {
             Tensor p = t(Shape{4});
             Tensor m = t(Shape{4});
             Tensor v = t(Shape{4});
             b.adam_update(p, t(Shape{4}, DType::f64), m, v, AdamSettings{}, 1.0, Tensor());
         }},
        {BackendOp::adam_update, "second_moment",
         [](Backend& b, const Tensors& t) {
             Tensor p = t(Shape{4});
             Tensor m = t(Shape{4});
             Tensor v = t(Shape{4}, DType::f64);
             b.adam_update(p, t(Shape{4}), m, v, AdamSettings{}, 1.0, Tensor());
         }},
        {BackendOp::round_storage, "tensor",
         [](Backend& b, const Tensors& t) {
             Tensor x = t(Shape{4}, DType::f64);
             b.round_storage(x, StorageRounding::fp16);
         }},
        {BackendOp::flag_non_finite, "overflow",
         [](Backend& b, const Tensors& t) {
             Tensor flag = t(Shape{1}, DType::f64);
             b.flag_non_finite(t(Shape{4}), flag);
         }},
    };
}

class WorkloadsBackendContract : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override {
        if (!backend_registered(GetParam())) {
            GTEST_SKIP() << GetParam() << " backend not built in";
        }
        try {
            backend_ = std::make_unique<CountingBackend>(create_backend(GetParam(), {}));
        } catch (const ConfigError& error) {
            GTEST_SKIP() << GetParam() << " backend not available here: " << error.what();
        }
        tensors_ = std::make_unique<TensorAllocator>(backend_->raw_allocator());
    }
    void TearDown() override {
        tensors_.reset();
        backend_.reset();
    }

    std::unique_ptr<CountingBackend> backend_;
    std::unique_ptr<TensorAllocator> tensors_;
};

TEST_P(WorkloadsBackendContract, EveryOperationRefusesBadArgumentsBeforeItsBackendRuns) {
    const std::vector<BadCall> calls = bad_calls();
    std::vector<bool> covered(kBackendOpCount, false);
    for (const BadCall& bad : calls) {
        const std::string op(to_string(bad.op));
        covered[static_cast<std::size_t>(bad.op)] = true;
        try {
            bad.call(*backend_, Tensors{*tensors_});
            ADD_FAILURE() << op << " accepted a bad " << bad.argument;
        } catch (const ContractError& error) {
            const std::string message = error.what();
            const std::string named = GetParam() + " backend: " + op + ": " + bad.argument + " is ";
            EXPECT_EQ(message.rfind(named, 0), 0u) << message << "\n  should start with: " << named;
            EXPECT_NE(message.find(", expected "), std::string::npos) << message;
        }
        EXPECT_EQ(backend_->calls(bad.op), 0) << op << ": the backend's hook ran";
    }
    // Every operation with tensor arguments has a bad call above.
    for (std::size_t i = 0; i < kBackendOpCount; ++i) {
        const auto op = static_cast<BackendOp>(i);
        EXPECT_TRUE(covered[i] || !takes_tensors(op)) << to_string(op) << " has no bad call";
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, WorkloadsBackendContract, ::testing::Values("cpu", "cuda"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                             return param_info.param;
                         });

}  // namespace
}  // namespace trainscope::workloads
