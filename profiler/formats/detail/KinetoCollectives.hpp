#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

// Adds to trace.collectives one CollectiveCall per communication kernel (NCCL's
// ncclKernel_* and ncclDevKernel_*, RCCL's), over the kernel's span on its stream lane.
// Each is joined to its launch (runtime call, by correlation) and through it to the
// record_param_comms op and the c10d op on the launching thread that hold the launch:
// kind, element counts, dtype, group and sequence come from there when written, else
// from the kernel's name (ncclKernel_AllReduce_RING_LL_Sum_float). Bytes are the larger
// element count times the dtype's size (the nccl-tests "size"). The trace's activities
// must be sorted (Trace::sort) and nested (assign_nesting_depths).
void add_kineto_collectives(Trace& trace, const std::vector<RecordParamComms>& records);

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
