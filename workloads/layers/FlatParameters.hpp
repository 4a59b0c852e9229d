#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "workloads/layers/Parameter.hpp"
#include "workloads/layers/StepContext.hpp"

namespace trainscope::workloads {

// Every parameter view starts this many bytes into its buffer (or a multiple of it), so
// cuDNN and cuBLAS see the alignment a tensor of its own would have (cudaMalloc gives 256).
inline constexpr std::size_t kParameterAlignmentBytes = 256;

// The parameters of a model in one flat buffer per role and dtype: masters, gradients (one
// buffer per gradient dtype), 16-bit or rounded compute copies, and the optimizer's state,
// which takes the masters' layout. Each Parameter's value, gradient and compute_copy are
// views into them at offsets that are multiples of kParameterAlignmentBytes in every
// buffer. The padding between views is zero and stays zero: the element-wise per-step work
// runs over whole buffers (one backend call each, whatever the parameter count), and zero
// in, zero out holds for the optimizers, the finite check and the casts.
//
// Layout: parameters with a compute copy first, then those computing with their master
// (batch norm's), each part in model order. A gradient buffer covers a contiguous range of
// the master layout (its span): one span when every gradient has the master dtype, two in
// natively stored fp16/bf16, where batch norm's gradients stay f32.
class FlatParameters {
  public:
    // A range of the master layout whose gradients are one buffer of one dtype.
    struct Span {
        std::int64_t begin = 0;  // elements, in the master layout
        std::int64_t elements = 0;
        Tensor gradients;  // [elements]
    };

    FlatParameters() = default;
    // Lays the parameters out, allocates the buffers, points each Parameter's tensors at
    // its views and zero-fills every buffer (one fill each). A parameter gets a compute
    // copy in mixed precision unless it keeps master precision; its gradient is in the
    // master dtype when it keeps master precision, else in the storage dtype.
    FlatParameters(const std::vector<Parameter*>& parameters, StepContext& context);

    const std::vector<Parameter*>& parameters() const { return parameters_; }
    // Elements of the master layout, padding included.
    std::int64_t layout_elements() const { return layout_elements_; }
    // Where parameters()[i] starts in the master layout, in elements.
    std::int64_t offset(std::size_t i) const { return offsets_[i]; }
    const Tensor& masters() const { return masters_; }
    const std::vector<Span>& spans() const { return spans_; }
    const Tensor& compute_copies() const { return compute_copies_; }  // empty without

    // A zero-filled buffer of the master dtype in the masters' layout (Adam's moments,
    // SGD's velocity): one allocation and one fill.
    Tensor make_state(StepContext& context) const;
    // The part of a master-layout buffer (masters() or make_state's) under `span`.
    static Tensor under(const Tensor& master_layout, const Span& span);

    // Copies a host image of the master layout (layout_elements() values, zero padding)
    // into the masters, in one copy.
    void upload_masters(StepContext& context, const std::vector<double>& values) const;
    // Sets overflow (Backend::flag_non_finite) when any gradient holds an inf or NaN: one
    // check per gradient buffer.
    void flag_non_finite_gradients(StepContext& context, Tensor& overflow) const;
    // Copies the masters into the compute copies (after every optimizer update): one
    // conversion to 16-bit when stored natively; one copy and one rounding when emulated.
    void refresh_compute_copies(StepContext& context) const;

  private:
    std::vector<Parameter*> parameters_;
    std::vector<std::int64_t> offsets_;
    std::int64_t layout_elements_ = 0;
    Tensor masters_;
    std::vector<Span> spans_;
    Tensor compute_copies_;  // the master layout's first compute_copies_.elements()
};

// Copies host values into a master-dtype tensor (f32 or f64) of as many elements, in one
// copy: narrowed to f32 on the host first where the tensor is f32.
void upload_master_values(StepContext& context, const std::vector<double>& values,
                          Tensor& destination);

}  // namespace trainscope::workloads
