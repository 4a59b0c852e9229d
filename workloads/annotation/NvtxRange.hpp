#pragma once

// NVTX ranges around training phases (domain "trainscope") and backend operations
// (domain "trainscope.ops"), so a tracer can attribute time to them. Without the NVTX
// headers (TRAINSCOPE_HAS_NVTX undefined) both compile to nothing.
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

  private:
    nvtx3::scoped_range_in<Domain> range_;
};
#else
template <typename Domain>
class NvtxRange {
  public:
    explicit NvtxRange(const char* message) { (void)message; }
};
#endif

// Epoch, step, forward, backward, optimizer, data load, evaluation.
using PhaseRange = NvtxRange<TrainscopeDomain>;
// One backend operation (conv_fwd, gemm, ...).
using OpRange = NvtxRange<TrainscopeOpsDomain>;

}  // namespace trainscope::workloads
