#include "workloads/backends/cuda/TensorProblems.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include "workloads/backends/cuda/PrecisionSelection.hpp"

namespace trainscope::workloads::cuda {
namespace {

int as_int(std::int64_t value, const char* op) {
    require(value >= 0 && value <= std::numeric_limits<int>::max(), op,
            "dimension exceeds cuDNN's int range");
    return static_cast<int>(value);
}

}  // namespace

void require(bool condition, const char* op, const char* what) {
    if (!condition) {
        throw std::logic_error(std::string("cuda backend: ") + op + ": " + what);
    }
}

DType master_dtype_of(DType storage) {
    return storage == DType::f64 ? DType::f64 : DType::f32;
}

cudnnDataType_t cudnn_type(const Tensor& t, const char* op) {
    switch (t.dtype()) {
        case DType::f32:
            return CUDNN_DATA_FLOAT;
        case DType::f64:
            return CUDNN_DATA_DOUBLE;
        case DType::f16:
            return CUDNN_DATA_HALF;
        case DType::bf16:
            return CUDNN_DATA_BFLOAT16;
        case DType::i32:
            break;
    }
    throw std::logic_error(std::string("cuda backend: ") + op + " needs a float tensor");
}

ConvProblem conv_problem(const Tensor& x, const Tensor& w, const Tensor& y, const Conv2dGeometry& g,
                         MathMode math) {
    const Shape& xs = x.shape();
    const Shape& ws = w.shape();
    const Shape& ys = y.shape();
    require(xs.rank() == 4 && ws.rank() == 4 && ys.rank() == 4, "conv2d", "needs rank-4 tensors");
    require(xs[1] == ws[1] && ys[1] == ws[0] && xs[0] == ys[0], "conv2d", "shapes do not match");
    require(x.dtype() == w.dtype() && x.dtype() == y.dtype(), "conv2d", "mixed element types");
    require(ys[2] == conv_output_extent(xs[2], ws[2], g.stride, g.padding) &&
                ys[3] == conv_output_extent(xs[3], ws[3], g.stride, g.padding),
            "conv2d", "output extent does not match the geometry");
    const LibraryMath library = library_math_for(x.dtype(), math);
    return {as_int(xs[0], "conv2d"),
            as_int(xs[1], "conv2d"),
            as_int(xs[2], "conv2d"),
            as_int(xs[3], "conv2d"),
            as_int(ws[0], "conv2d"),
            as_int(ws[2], "conv2d"),
            as_int(ws[3], "conv2d"),
            as_int(ys[2], "conv2d"),
            as_int(ys[3], "conv2d"),
            g.stride,
            g.padding,
            library.cudnn_data_type,
            library.cudnn_compute_type,
            library.cudnn_math};
}

math::PoolPlane pool_plane(const Tensor& x, const Tensor& y, const Pool2dGeometry& g) {
    const Shape& xs = x.shape();
    const Shape& ys = y.shape();
    require(xs.rank() == 4 && ys.rank() == 4 && xs[0] == ys[0] && xs[1] == ys[1], "pool",
            "shapes do not match");
    return {xs[2], xs[3], ys[2], ys[3], g.window, g.stride, g.padding};
}

PoolProblem pool_problem(const Tensor& x, const Tensor& y, const Pool2dGeometry& g, PoolKind kind) {
    const Shape& xs = x.shape();
    const Shape& ys = y.shape();
    require(xs.rank() == 4 && ys.rank() == 4 && xs[0] == ys[0] && xs[1] == ys[1], "pool",
            "shapes do not match");
    require(x.dtype() == y.dtype(), "pool", "mixed element types");
    require(g.window > 0 && g.stride > 0 && g.padding >= 0, "pool",
            "window and stride must be positive, padding not negative");
    require(ys[2] == conv_output_extent(xs[2], g.window, g.stride, g.padding) &&
                ys[3] == conv_output_extent(xs[3], g.window, g.stride, g.padding),
            "pool", "output extent does not match the geometry");
    return {as_int(xs[0], "pool"),
            as_int(xs[1], "pool"),
            as_int(xs[2], "pool"),
            as_int(xs[3], "pool"),
            as_int(ys[2], "pool"),
            as_int(ys[3], "pool"),
            g.window,
            g.stride,
            g.padding,
            kind,
            cudnn_type(x, "pool")};
}

std::string pool_extent_mismatch(const PoolProblem& problem, int cudnn_p, int cudnn_q) {
    if (cudnn_p == problem.p && cudnn_q == problem.q) {
        return {};
    }
    return "cuda backend: pool: cuDNN computes a " + std::to_string(cudnn_p) + "x" +
           std::to_string(cudnn_q) + " output for a " + std::to_string(problem.h) + "x" +
           std::to_string(problem.w) + " input (window " + std::to_string(problem.window) +
           ", stride " + std::to_string(problem.stride) + ", padding " +
           std::to_string(problem.padding) + ") but the engine allocated " +
           std::to_string(problem.p) + "x" + std::to_string(problem.q);
}

ActivationProblem activation_problem(const Tensor& x, const Tensor& y, const char* op) {
    const Shape& s = x.shape();
    require(x.dtype() == y.dtype() && x.elements() == y.elements(), op,
            "x and y must have one element type and element count");
    const cudnnDataType_t type = cudnn_type(x, op);
    if (s.rank() == 4) {
        return {as_int(s[0], op), as_int(s[1], op), as_int(s[2], op), as_int(s[3], op), type};
    }
    if (s.rank() == 2) {
        return {as_int(s[0], op), as_int(s[1], op), 1, 1, type};
    }
    return {as_int(x.elements(), op), 1, 1, 1, type};
}

BatchNormProblem batch_norm_problem(const Tensor& x, const Tensor& gamma) {
    require(gamma.dtype() == master_dtype_of(x.dtype()), "batch_norm",
            "scale, bias and statistics must be f32 (f64 for f64 data)");
    const Shape& s = x.shape();
    const bool image = s.rank() == 4;
    return {as_int(s[0], "batch_norm"), as_int(s[1], "batch_norm"),
            image ? as_int(s[2], "batch_norm") : 1, image ? as_int(s[3], "batch_norm") : 1,
            cudnn_type(x, "batch_norm")};
}

bool batch_norm_uses_own_kernels(DType storage) {
    return storage == DType::bf16;
}

kernels::BatchNormShape own_batch_norm_shape(const Tensor& x,
                                             std::initializer_list<const Tensor*> like_x,
                                             std::initializer_list<const Tensor*> per_channel) {
    const Shape& s = x.shape();
    require(s.rank() == 4 || s.rank() == 2, "batch_norm", "needs x [N,C,H,W] or [N,C]");
    require(x.dtype() == DType::bf16 || x.dtype() == DType::f16 || x.dtype() == DType::f32,
            "batch_norm", "own kernels store bf16, f16 or f32");
    for (const Tensor* t : like_x) {
        require(t->dtype() == x.dtype() && t->shape() == s, "batch_norm",
                "y, dy and dx must have x's element type and shape");
    }
    for (const Tensor* t : per_channel) {
        require(t->dtype() == DType::f32 && t->elements() == s[1], "batch_norm",
                "scale, bias, statistics and their gradients must be f32 [C]");
    }
    return {s[0], s[1], s.rank() == 4 ? s[2] * s[3] : 1};
}

}  // namespace trainscope::workloads::cuda
