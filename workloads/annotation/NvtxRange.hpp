#pragma once

// NVTX ranges around training phases (domain "trainscope") and backend operations
// (domain "trainscope.ops"), so a tracer can attribute time to them. An op range may
// carry what the op must do (FLOPs and minimum bytes, OpCost) as its payload
// (common/OpWorkPayload.hpp), so the kernels under it inherit the numbers. Without the
// NVTX headers (TRAINSCOPE_HAS_NVTX undefined) both compile to nothing.
#include "common/OpWorkPayload.hpp"
#include "workloads/backend/OpCost.hpp"

#if defined(TRAINSCOPE_HAS_NVTX)
#include <nvtx3/nvtx3.hpp>
#endif

namespace trainscope::workloads {

struct TrainscopeDomain {
    static constexpr char const* name{"trainscope"};
};

struct TrainscopeOpsDomain {
    static constexpr char const* name{"trainscope.ops"};
};

#if defined(TRAINSCOPE_HAS_NVTX)
template <typename Domain>
class NvtxRange {
  public:
    explicit NvtxRange(const char* message) : range_{message} {}
    NvtxRange(const char* message, const OpCost& cost)
        : range_{nvtx3::event_attributes{
              message, nvtx3::payload{encode_op_work(OpWork{cost.flops, cost.bytes})}}} {}

  private:
    nvtx3::scoped_range_in<Domain> range_;
};
#else
template <typename Domain>
class NvtxRange {
  public:
    explicit NvtxRange(const char* message) { (void)message; }
    NvtxRange(const char* message, const OpCost& cost) {
        (void)message;
        (void)cost;
    }
};
#endif

// Epoch, step, forward, backward, optimizer, data load, evaluation.
using PhaseRange = NvtxRange<TrainscopeDomain>;
// One backend operation (conv_fwd, gemm, ...).
using OpRange = NvtxRange<TrainscopeOpsDomain>;

}  // namespace trainscope::workloads
