#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "profiler/formats/detail/CommunicationKernels.hpp"
#include "profiler/trace/NestingStack.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler::detail {

// What a Kineto `record_param_comms` CPU op says about the collective issued inside it.
// Newer PyTorch writes "Collective name", "In msg nelems", "Out msg nelems", "dtype",
// "Group size", "Process Group Name" (or "pg_name") and "Seq" (or "seq"); older traces
// (both multi-rank fixtures) carry none of them, only the op itself.
struct RecordParamComms {
    std::int64_t process = 0;
    std::int64_t thread = 0;
    std::int64_t start_ns = 0;  // on the same clock as the trace's activities
    std::int64_t end_ns = 0;
    std::string collective;  // "allreduce", "_allgather_base", ...; "" when not written
    std::string dtype;       // "Float", "BFloat16", ...
    std::string group;       // process group name
    std::int64_t in_elements = 0;
    std::int64_t out_elements = 0;
    std::int64_t group_size = 0;
    std::int64_t sequence = -1;
};

// Adds to a trace one CollectiveCall per communication kernel (NCCL's ncclKernel_* and
// ncclDevKernel_*, RCCL's), over the kernel's span on its stream lane, in the order the
// kernels pass. Each is joined to its launch (runtime call, by correlation) and through
// it to the record_param_comms op and the c10d op on the launching thread that hold the
// launch: kind, element counts, dtype, group and sequence come from there when written,
// else from the kernel's name (ncclKernel_AllReduce_RING_LL_Sum_float). Bytes are the
// larger element count times the dtype's size (the nccl-tests "size"). Made for a trace
// whose activities pass once: what it keeps is the communication kernels' correlations,
// the records, and what each such launch's enclosing ops said.
class KinetoCollectiveJoin {
  public:
    // While the file is read: every kernel, and every record_param_comms op.
    void note_kernel(const Activity& kernel, const StringTable& strings) {
        communication_.note_kernel(kernel, strings);
    }
    void add_record(RecordParamComms record);
    // After reading, before the activities pass: the records onto the trace's t = 0.
    void shift_records(std::int64_t origin_ns);
    // Each activity in Trace::sort's order, with the intervals enclosing it on its lane
    // (NestingStack::open before it is pushed).
    void see(const Activity& a, std::span<const NestingStack::Open> ancestors, const Trace& trace);
    // After the last activity: the calls into trace.collectives.
    void finish(Trace& trace);

  private:
    using HostKey = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // process, thread, start
    struct LaunchContext {
        std::optional<std::size_t> record;  // into records_
        std::optional<CollectiveKind> op_kind;
    };
    CommunicationKernels communication_;
    std::vector<RecordParamComms> records_;
    std::map<HostKey, std::size_t> record_at_;
    std::unordered_map<std::uint64_t, LaunchContext> launches_;  // the first launch of each
    std::vector<Activity> kernels_;                              // communication kernels
};

// The size in bytes of one element of a dtype as PyTorch ("Float", "BFloat16") or NCCL
// kernel names ("float", "f32", "int8_t", "bf16") spell it; 0 when unknown.
std::int64_t dtype_size_bytes(std::string_view dtype);

// The element type an NCCL kernel's name says: "ncclKernel_AllReduce_RING_LL_Sum_float"
// -> "float", "ncclDevKernel_AllReduce_Sum_f32_RING_LL" -> "f32";
// "ncclDevKernel_AllGather_RING_LL" -> "" (NCCL >= 2.19 leaves it out of some names).
std::string dtype_from_kernel_name(std::string_view name);

// The collective kind a PyTorch collective name ("allreduce", "_allgather_base",
// "reduce_scatter_tensor_coalesced", "c10d::alltoall_base_", "nccl:all_reduce") or an
// NCCL kernel name ("ncclDevKernel_AllGather_RING_LL") says; nullopt when none.
std::optional<CollectiveKind> collective_kind_from_name(std::string_view name);

}  // namespace trainscope::profiler::detail
