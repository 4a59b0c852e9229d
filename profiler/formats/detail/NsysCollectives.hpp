#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "profiler/formats/detail/CommunicationKernels.hpp"
#include "profiler/sqlite/SqliteConnection.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler::detail {

// One NCCL API call as an Nsight Systems export keeps it: NCCL (2.19 and later, NVTX on
// by default) marks every call with an NVTX range named after it ("ncclAllReduce") on the
// calling thread, whose extended payload nsys exports as JSON text in NVTX_EVENTS
// (jsonText, or jsonTextId into StringIds), with "Message size [bytes]" and "NCCL
// communicator ID" (NCCL's src/include/nvtx_payload_schemas.h).
struct NcclApiRange {
    std::int64_t process = 0;
    std::int64_t thread = 0;
    std::int64_t start_ns = 0;  // the export's clock, before the importer moves its origin
    std::int64_t end_ns = 0;
    std::string name;          // "ncclAllReduce"
    std::int64_t bytes = 0;    // the payload's message size; 0 when it has none
    std::string communicator;  // the payload's communicator id; "" when it has none
};

// The NVTX ranges named nccl* of an export, by thread and start; none when the export
// has no NVTX_EVENTS.
std::vector<NcclApiRange> read_nccl_api_ranges(const SqliteConnection& db);

// Adds one CollectiveCall per communication kernel (ncclKernel_*, ncclDevKernel_*, RCCL's)
// of an imported Nsight Systems trace, over the kernel's span on its stream lane, in the
// order the kernels pass. The kind comes from the kernel's name
// (ncclDevKernel_AllReduce_Sum_f32_RING_LL), else from the NCCL range that holds the
// kernel's launch (by correlation: the first API call that passes with it) on the
// launching thread (SendRecv kernels serve ncclSend and ncclRecv); the element type from
// the kernel's name. From that range's payload: the bytes where the message size is the
// nccl-tests size (all-reduce, broadcast, reduce, send, receive; NCCL gives all-gather and
// reduce-scatter per rank, so those stay unknown), and the communicator as the group,
// which is the same on every rank of a communicator. Without them bytes are 0 (unknown)
// and the group "" (the world). The sequence is left unknown, so match_collectives pairs
// the ranks' calls by order within (group, kind), as it does for Kineto traces without
// record_param_comms. Made for a trace whose activities pass once: what it keeps is the
// NCCL ranges, the communication kernels' correlations and, for each, its launch's thread
// and start.
class NsysCollectiveJoin {
  public:
    // While the export is read: every kernel; then its NCCL ranges.
    void note_kernel(const Activity& kernel, const StringTable& strings) {
        communication_.note_kernel(kernel, strings);
    }
    void set_ranges(std::vector<NcclApiRange> ranges) { ranges_ = std::move(ranges); }
    // Each activity in Trace::sort's order, on the trace's clock (t = 0 is `origin_ns` of
    // the export's clock, on which the ranges stay).
    void see(const Activity& a, std::int64_t origin_ns, const Trace& trace);
    // After the last activity: the calls into trace.collectives.
    void finish(Trace& trace) const;

  private:
    struct Launch {
        std::int64_t process = 0;
        std::int64_t thread = 0;
        std::int64_t start_ns = 0;  // the export's clock
    };
    // What a communication kernel's call needs of it: 32 bytes, not a whole Activity's 88.
    struct Kernel {
        std::uint64_t correlation = 0;
        std::int64_t start_ns = 0;
        std::int64_t end_ns = 0;
        StringId name = 0;
        LaneId lane = 0;
    };
    std::vector<NcclApiRange> ranges_;
    CommunicationKernels communication_;
    std::unordered_map<std::uint64_t, Launch> launches_;  // the first launch of each
    std::vector<Kernel> kernels_;                         // communication kernels
};

}  // namespace trainscope::profiler::detail
