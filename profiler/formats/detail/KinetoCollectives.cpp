#include "profiler/formats/detail/KinetoCollectives.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>
#include <unordered_map>

#include "profiler/analysis/KernelCategory.hpp"

namespace trainscope::profiler::detail {

namespace {

// Lowercase letters and digits only: "c10d::_allgather_base_" -> "c10dallgatherbase".
std::string squeezed(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c))
            out.push_back(static_cast<char>(std::tolower(c)));
    }
    return out;
}

std::string_view before_parenthesis(std::string_view name) {
    const auto paren = name.find('(');
    return paren == std::string_view::npos ? name : name.substr(0, paren);
}

using HostKey = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // process, thread, start

}  // namespace

std::string dtype_from_kernel_name(std::string_view name) {
    const std::string_view stem = before_parenthesis(name);
    std::size_t begin = 0;
    while (begin <= stem.size()) {
        const auto end = std::min(stem.find('_', begin), stem.size());
        const std::string_view token = stem.substr(begin, end - begin);
        if (begin > 0 && dtype_size_bytes(token) > 0)
            return std::string(token);
        begin = end + 1;
    }
    return {};
}

std::int64_t dtype_size_bytes(std::string_view dtype) {
    const std::string d = squeezed(dtype);
    static const std::map<std::string, std::int64_t, std::less<>> kSizes{
        {"float", 4},  {"float32", 4}, {"f32", 4},     {"int", 4},          {"int32", 4},
        {"int32t", 4}, {"i32", 4},     {"uint32", 4},  {"uint32t", 4},      {"u32", 4},
        {"double", 8}, {"float64", 8}, {"f64", 8},     {"long", 8},         {"int64", 8},
        {"int64t", 8}, {"i64", 8},     {"uint64", 8},  {"uint64t", 8},      {"u64", 8},
        {"half", 2},   {"float16", 2}, {"f16", 2},     {"bfloat16", 2},     {"bf16", 2},
        {"short", 2},  {"int16", 2},   {"char", 1},    {"int8", 1},         {"int8t", 1},
        {"i8", 1},     {"uint8", 1},   {"uint8t", 1},  {"u8", 1},           {"byte", 1},
        {"bool", 1},   {"fp8e4m3", 1}, {"fp8e5m2", 1}, {"float8e4m3fn", 1}, {"float8e5m2", 1},
    };
    const auto it = kSizes.find(d);
    return it == kSizes.end() ? 0 : it->second;
}

std::optional<CollectiveKind> collective_kind_from_name(std::string_view name) {
    std::string n = squeezed(before_parenthesis(name));
    for (const std::string_view prefix : {"nccldevkernel", "ncclkernel", "rccl", "nccl"}) {
        if (n.rfind(prefix, 0) == 0) {
            n = n.substr(prefix.size());
            break;
        }
    }
    const auto has = [&n](std::string_view part) { return n.find(part) != std::string::npos; };
    // Longer names first: "allreduce" holds "reduce", "allgather" holds "gather".
    if (has("reducescatter"))
        return CollectiveKind::ReduceScatter;
    if (has("allreduce"))
        return CollectiveKind::AllReduce;
    if (has("allgather"))
        return CollectiveKind::AllGather;
    if (has("alltoall"))
        return CollectiveKind::AllToAll;
    if (has("sendrecv"))
        return std::nullopt;  // NCCL's point-to-point kernel serves send, recv and all-to-all
    if (has("broadcast"))
        return CollectiveKind::Broadcast;
    if (has("barrier"))
        return CollectiveKind::Barrier;
    if (has("gather"))
        return CollectiveKind::Gather;
    if (has("scatter"))
        return CollectiveKind::Scatter;
    if (has("reduce"))
        return CollectiveKind::Reduce;
    if (has("send"))
        return CollectiveKind::Send;
    if (has("recv"))
        return CollectiveKind::Recv;
    return std::nullopt;
}

void KinetoCollectiveJoin::add_record(RecordParamComms record) {
    records_.push_back(std::move(record));
}

void KinetoCollectiveJoin::shift_records(std::int64_t origin_ns) {
    for (RecordParamComms& r : records_) {
        r.start_ns -= origin_ns;
        r.end_ns -= origin_ns;
    }
    for (std::size_t i = 0; i < records_.size(); ++i) {
        const RecordParamComms& r = records_[i];
        record_at_.emplace(HostKey{r.process, r.thread, r.start_ns}, i);
    }
}

void KinetoCollectiveJoin::see(const Activity& a, std::span<const NestingStack::Open> ancestors,
                               const Trace& trace) {
    if (communication_.is_communication_kernel(a, trace.strings)) {
        kernels_.push_back(a);
        return;
    }
    if (!communication_.launches_communication(a) || launches_.count(a.correlation) != 0)
        return;
    // The ops that hold the launch on its thread: nearest ancestors first.
    const Lane& lane = trace.lanes.at(a.lane);
    LaunchContext context;
    for (auto it = ancestors.rbegin(); it != ancestors.rend(); ++it) {
        const std::string_view op = trace.strings.at(it->name);
        if (op == "record_param_comms" && !context.record) {
            const auto r =
                record_at_.find(HostKey{lane.process, lane.stream_or_thread, it->start_ns});
            if (r != record_at_.end())
                context.record = r->second;
        } else if (!context.op_kind && (op.rfind("c10d::", 0) == 0 || op.rfind("nccl:", 0) == 0)) {
            context.op_kind = collective_kind_from_name(op.substr(op.find(':') + 1));
        }
    }
    launches_.emplace(a.correlation, context);
}

void KinetoCollectiveJoin::finish(Trace& trace) {
    for (const Activity& kernel : kernels_) {
        const std::string_view name = trace.strings.at(kernel.name);
        CollectiveCall call;
        call.start_ns = kernel.start_ns;
        call.end_ns = kernel.end_ns;
        call.lane = kernel.lane;
        std::optional<CollectiveKind> kind = collective_kind_from_name(name);
        std::string dtype = dtype_from_kernel_name(name);
        std::string group;
        const RecordParamComms* record = nullptr;
        std::optional<CollectiveKind> op_kind;
        if (const auto found = launches_.find(kernel.correlation); found != launches_.end()) {
            if (found->second.record)
                record = &records_[*found->second.record];
            op_kind = found->second.op_kind;
        }
        if (op_kind)
            kind = op_kind;
        if (record != nullptr) {
            if (auto k = collective_kind_from_name(record->collective))
                kind = k;
            if (!record->dtype.empty())
                dtype = record->dtype;
            group = record->group;
            call.sequence = record->sequence;
            call.group_size = static_cast<std::int32_t>(record->group_size);
            call.elements = std::max(record->in_elements, record->out_elements);
        }
        call.kind = kind.value_or(CollectiveKind::Other);
        call.bytes = call.elements * dtype_size_bytes(dtype);
        call.dtype = trace.strings.intern(dtype);
        call.group = trace.strings.intern(group);
        trace.collectives.push_back(call);
    }
}

}  // namespace trainscope::profiler::detail
