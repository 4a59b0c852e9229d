#pragma once

#include <memory>
#include <string>

#include "workloads/backends/cpu/detail/ConvDims.hpp"
#include "workloads/memory/WorkspaceUse.hpp"

namespace trainscope::workloads::cpu {

// fp32 convolutions through oneDNN's direct JIT kernels, the ones PyTorch's CPU
// convolutions use. Tensors stay NCHW / KCRS in backend memory; each call reorders its
// operands into the blocked layouts the kernels want and the result back, which costs a
// few per cent of the convolution and keeps every other op layout-agnostic. Primitives are
// made once per (shape, bias) and cached. oneDNN runs on OpenMP threads, as many as
// `threads`; ThreadPool uses the same OpenMP team, so the two never compete for cores.
// Results are run-to-run identical for a fixed thread count (no atomics on the CPU).
class OnednnConvolutions {
  public:
    // The blocked copies and oneDNN's scratchpad (user mode: oneDNN asks, we allocate) are
    // workspace, counted in `workspace` (may be null) for the call in flight.
    OnednnConvolutions(int threads, WorkspaceUse* workspace);
    ~OnednnConvolutions();
    OnednnConvolutions(const OnednnConvolutions&) = delete;
    OnednnConvolutions& operator=(const OnednnConvolutions&) = delete;

    // bias may be null. Throws std::runtime_error carrying oneDNN's status and message.
    void forward(const ConvDims& dims, const float* x, const float* w, const float* bias, float* y);
    void backward_data(const ConvDims& dims, const float* dy, const float* w, float* dx);
    // dbias may be null.
    void backward_filter(const ConvDims& dims, const float* x, const float* dy, float* dw,
                         float* dbias);

    // "2.6.3 (cpu runtime OpenMP)"; and the kernels oneDNN chose for the shapes run so far,
    // e.g. "fwd 64x16x28x28 k16 r3 s1 p1: jit:avx512_core".
    static std::string version();
    std::string implementations() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace trainscope::workloads::cpu
